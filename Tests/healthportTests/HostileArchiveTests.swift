import Foundation
import HealthTestSupport
import Testing
import ZIPFoundation

/// Archives nobody's phone writes: refused with a one-line reason, before anything is inflated.
@Suite struct HostileArchiveTests {
    static let document = Data(#"<?xml version="1.0" encoding="UTF-8"?><HealthData locale="en_US"><ExportDate value="2024-01-01 00:00:00 +0000"/></HealthData>"#.utf8)

    static func zip(_ entries: [(path: String, data: Data, type: Entry.EntryType)]) throws -> URL {
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("export.zip")
        let archive = try Archive(url: url, accessMode: .create)
        for entry in entries {
            try archive.addEntry(
                with: entry.path, type: entry.type, uncompressedSize: Int64(entry.data.count), compressionMethod: .deflate
            ) { position, size in entry.data.subdata(in: Int(position)..<Int(position) + size) }
        }
        return url
    }

    /// Sets bits in every local and central header (flags at +6/+8, method at +8/+10).
    static func patch(_ url: URL, flags: UInt16? = nil, method: UInt16? = nil) throws {
        var bytes = [UInt8](try Data(contentsOf: url))
        var i = 0
        while i + 4 <= bytes.count {
            let signature = UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
            let (flagsAt, methodAt): (Int, Int)
            switch signature {
            case 0x0403_4B50: (flagsAt, methodAt) = (i + 6, i + 8)
            case 0x0201_4B50: (flagsAt, methodAt) = (i + 8, i + 10)
            default:
                i += 1
                continue
            }
            if let flags { bytes[flagsAt] |= UInt8(flags & 0xFF) }
            if let method {
                bytes[methodAt] = UInt8(method & 0xFF)
                bytes[methodAt + 1] = UInt8(method >> 8)
            }
            i += 4
        }
        try Data(bytes).write(to: url)
    }

    static func expectRefused(_ url: URL, _ words: String, environment: [String: String] = [:]) throws {
        let result = try CommandRunner.run(healthportBinary, ["info", url.path], environment: environment)
        #expect(result.status == 65, "\(words): \(result.stderrText)")
        #expect(result.stderrText.contains(words), "\(result.stderrText)")
        #expect(result.stderrText.split(separator: "\n").count == 1)
    }

    @Test func unsafePathsLinksAndDuplicatesAreRefused() throws {
        try Self.expectRefused(
            try Self.zip([("apple_health_export/export.xml", Self.document, .file), ("../../etc/cron.d/x", Data("x".utf8), .file)]),
            "path leaves the archive")
        try Self.expectRefused(
            try Self.zip([("apple_health_export/export.xml", Self.document, .file), ("/tmp/x", Data("x".utf8), .file)]),
            "path leaves the archive")
        try Self.expectRefused(
            try Self.zip([("apple_health_export/export.xml", Self.document, .file), ("apple_health_export/link", Data("/etc/passwd".utf8), .symlink)]),
            "symbolic link")
        try Self.expectRefused(
            try Self.zip([("apple_health_export/export.xml", Self.document, .file), ("apple_health_export/export.xml", Self.document, .file)]),
            "twice")
    }

    @Test func encryptedAndUnsupportedEntriesAreRefused() throws {
        let encrypted = try Self.zip([("apple_health_export/export.xml", Self.document, .file)])
        try Self.patch(encrypted, flags: 0x01)
        try Self.expectRefused(encrypted, "is encrypted")
        let bzip2 = try Self.zip([("apple_health_export/export.xml", Self.document, .file)])
        try Self.patch(bzip2, method: 12)
        try Self.expectRefused(bzip2, "compression method 12")
    }

    @Test func aZipBombIsRefusedUnlessTheLimitIsRaised() throws {
        var big = Data(#"<?xml version="1.0" encoding="UTF-8"?><HealthData locale="en_US">"#.utf8)
        big.append(Data(repeating: 0x20, count: 4 << 20))
        big.append(Data("</HealthData>".utf8))
        let bomb = try Self.zip([("apple_health_export/export.xml", big, .file)])
        try Self.expectRefused(bomb, "would expand", environment: ["HEALTHPORT_MAX_EXPANSION": "100"])
        let allowed = try CommandRunner.run(healthportBinary, ["info", bomb.path, "-q"], environment: ["HEALTHPORT_MAX_EXPANSION": "100000"])
        #expect(allowed.status == 0, "\(allowed.stderrText)")
        // The real exports pass the default limit.
        #expect(try healthport("info", sampleZip, "-q").status == 0)
    }

    /// The document is inflated by healthport's own zlib path (not the zip library's): damaged
    /// deflate data, or a stored document whose bytes no longer match its CRC-32, is a located
    /// error, whether inflating on the parsing thread or on its own.
    @Test func aDamagedDocumentEntryIsRefusedWithItsName() throws {
        var options = ExportGenerator.Options()
        options.days = 20
        let folder = try Fixtures.temporaryDirectory()
        let path = folder.appendingPathComponent("export.xml")
        #expect(FileManager.default.createFile(atPath: path.path, contents: nil))
        let handle = try FileHandle(forWritingTo: path)
        _ = ExportGenerator(options: options).writeDocument(to: handle)
        try handle.close()
        let document = try Data(contentsOf: path)
        for method in [CompressionMethod.deflate, .none] {
            let url = folder.appendingPathComponent("export-\(method == .none ? "stored" : "deflated").zip")
            let archive = try Archive(url: url, accessMode: .create)
            try archive.addEntry(
                with: "apple_health_export/export.xml", type: .file, uncompressedSize: Int64(document.count), compressionMethod: method
            ) { position, size in document.subdata(in: Int(position)..<Int(position) + size) }
            let intact = try healthport("convert", url.path, "-q", "--jobs", "1")
            #expect(intact.status == 0, "\(intact.stderrText)")
            #expect(try healthport("convert", url.path, "-q", "--jobs", "2").stdout == intact.stdout)
            // Damage the middle of the entry's data: digits of step counts in a stored document
            // (still well-formed XML with valid values, so only the CRC can tell), bytes of the
            // deflate stream otherwise.
            var bytes = try Data(contentsOf: url)
            let middle = bytes.count / 2
            var changed = 0
            var i = middle
            let marker = Array(#" value=""#.utf8)
            while changed < 16 && i < bytes.count {
                if method == .none {
                    guard i + marker.count + 1 < bytes.count, Array(bytes[i..<(i + marker.count)]) == marker,
                        bytes[i + marker.count] >= 0x30 && bytes[i + marker.count] <= 0x39
                    else {
                        i += 1
                        continue
                    }
                    i += marker.count
                    while bytes[i] != 0x22 {
                        if bytes[i] >= 0x30 && bytes[i] <= 0x38 { bytes[i] += 1; changed += 1 }
                        i += 1
                    }
                } else {
                    bytes[i] ^= 0x5A
                    changed += 1
                }
                i += 1
            }
            try bytes.write(to: url)
            for jobs in ["1", "2"] {
                let result = try healthport("convert", url.path, "-q", "--jobs", jobs)
                #expect(result.status == 65, "\(method) --jobs \(jobs): \(result.stderrText)")
                #expect(result.stderrText.contains(url.path), "\(result.stderrText)")
                // Garbage deflate data may inflate to bytes the XML parser refuses first; a
                // stored document's changed digits are only caught by the CRC.
                if method == .none { #expect(result.stderrText.contains("CRC-32"), "\(result.stderrText)") }
            }
        }
    }
}

/// Names healthport prints come from strangers: control characters in them (a terminal's
/// escape sequences) are printed as `\xNN`, never raw.
@Suite struct PrintableNameTests {
    @Test func controlCharactersInNamesAreEscaped() throws {
        let directory = try Fixtures.temporaryDirectory()
        let name = directory.path + "/report\u{1B}]0;owned\u{07}\u{1B}[2J.zip"
        let missing = try healthport("convert", name, "-q")
        #expect(missing.status == 66)
        #expect(!missing.stderr.contains(0x1B) && !missing.stderr.contains(0x07))
        #expect(missing.stderrText.contains("\\x1B]0;owned\\x07"))
        // A zip whose document entry name holds an escape sequence, refused or read: no raw escape.
        let zip = directory.appendingPathComponent("hostile.zip").path
        let script = "import zipfile,sys\nwith zipfile.ZipFile(sys.argv[1],'w') as z: z.writestr('apple_health_export/\\x1b[31mexport.xml', '<HealthData><Record/></HealthData>')"
        _ = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, zip])
        let result = try healthport("convert", zip)
        #expect(!result.stderr.contains(0x1B))
    }
}
