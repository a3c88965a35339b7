import Foundation

/// What a zip's central directory says of each entry, read directly (the zip library does not
/// expose flags, methods or file modes), so that hostile archives are refused before anything
/// is inflated: encrypted entries, unsupported compression, unsafe or duplicate paths, links.
struct ZipDirectory {
    struct Entry {
        var name: String
        var flags: UInt16
        var method: UInt16
        /// The Unix mode in the high half of the external attributes (0 when not Unix).
        var mode: UInt32
        var crc32: UInt32 = 0
        var compressedSize: UInt64 = 0
        var uncompressedSize: UInt64 = 0
        var localHeaderOffset: UInt64 = 0
    }

    var entries: [Entry] = []

    /// Whether the file's last 64 KB hold a zip's end-of-central-directory signature, where a
    /// zip reader looks for it. One read: the zip library looks for it a byte at a time, one
    /// seek and one read each, 65,557 of both on a file that has none (a cut-off or damaged zip),
    /// which was most of the export harness's time (perf: `lseek` and the kernel, 55 %), so it
    /// is asked only when the signature is there.
    static func hasEndRecord(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size >= 22 else { return false }
        let tailLength = min(size, 65_535 + 22)
        try? handle.seek(toOffset: size - tailLength)
        guard let tail = (try? handle.readToEnd()).map(Array.init), tail.count >= 22 else { return false }
        return (0...(tail.count - 22)).contains { u32(tail, $0) == 0x0605_4B50 }
    }

    /// Reads the central directory; `nil` when it cannot be found (a cut-off zip).
    init?(path: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size >= 22 else { return nil }
        let tailLength = min(size, 65_535 + 22 + 20)
        try? handle.seek(toOffset: size - tailLength)
        guard let tailData = try? handle.readToEnd() else { return nil }
        let tail = Array(tailData)
        guard let eocd = (0...(tail.count - 22)).reversed().first(where: { Self.u32(tail, $0) == 0x0605_4B50 }) else { return nil }
        var count = UInt64(Self.u16(tail, eocd + 10))
        var offset = UInt64(Self.u32(tail, eocd + 16))
        if count == 0xFFFF || offset == 0xFFFF_FFFF, eocd >= 20, Self.u32(tail, eocd - 20) == 0x0706_4B50 {
            // Zip64: the locator points at the zip64 end record, which holds the real values.
            let recordOffset = Self.u64(tail, eocd - 20 + 8)
            try? handle.seek(toOffset: recordOffset)
            guard let record = try? handle.read(upToCount: 56).map(Array.init), record.count == 56,
                Self.u32(record, 0) == 0x0606_4B50
            else { return nil }
            count = Self.u64(record, 32)
            offset = Self.u64(record, 48)
        }
        guard offset < size, count < 10_000_000 else { return nil }
        try? handle.seek(toOffset: offset)
        var position = offset
        for _ in 0..<count {
            guard let header = try? handle.read(upToCount: 46).map(Array.init), header.count == 46,
                Self.u32(header, 0) == 0x0201_4B50
            else { return nil }
            let nameLength = Int(Self.u16(header, 28))
            let extraLength = Int(Self.u16(header, 30))
            let commentLength = Int(Self.u16(header, 32))
            guard let nameData = try? handle.read(upToCount: nameLength), nameData.count == nameLength,
                let extra = try? handle.read(upToCount: extraLength).map(Array.init) ?? [], extra.count == extraLength
            else { return nil }
            var entry = Entry(
                name: String(decoding: nameData, as: UTF8.self), flags: Self.u16(header, 8), method: Self.u16(header, 10),
                mode: Self.u32(header, 38) >> 16, crc32: Self.u32(header, 16), compressedSize: UInt64(Self.u32(header, 20)),
                uncompressedSize: UInt64(Self.u32(header, 24)), localHeaderOffset: UInt64(Self.u32(header, 42)))
            Self.applyZip64(extra, to: &entry)
            entries.append(entry)
            position += 46 + UInt64(nameLength + extraLength + commentLength)
            try? handle.seek(toOffset: position)
        }
    }

    /// Sizes and offsets too large for 32 bits are 0xFFFFFFFF in the header and 64-bit values in
    /// the zip64 extra field (id 1), in this order, for those fields only.
    static func applyZip64(_ extra: [UInt8], to entry: inout Entry) {
        var i = 0
        while i + 4 <= extra.count {
            let id = u16(extra, i)
            let length = Int(u16(extra, i + 2))
            let end = i + 4 + length
            guard end <= extra.count else { return }
            if id == 1 {
                var j = i + 4
                func next(_ value: inout UInt64) {
                    guard value == 0xFFFF_FFFF, j + 8 <= end else { return }
                    value = u64(extra, j)
                    j += 8
                }
                next(&entry.uncompressedSize)
                next(&entry.compressedSize)
                next(&entry.localHeaderOffset)
                return
            }
            i = end
        }
    }

    /// The first reason to refuse the archive, if any.
    func refusal() -> (code: ExportError.Code, message: String, member: String?)? {
        var seen = Set<String>()
        for entry in entries {
            let name = entry.name
            let components = name.split(whereSeparator: { $0 == "/" || $0 == "\\" })
            let isAbsolute = name.hasPrefix("/") || name.hasPrefix("\\")
                || (name.count >= 2 && name.dropFirst().first == ":" && name.first?.isLetter == true)
            if isAbsolute || components.contains("..") {
                return (.unsafeMemberPath, "refused: the zip archive has an entry whose path leaves the archive (\(name.prefix(80)))", nil)
            }
            if entry.mode & 0o170000 == 0o120000 {
                return (.unsafeMemberPath, "refused: the zip archive holds a symbolic link (\(name.prefix(80))); exports never do", name)
            }
            if !seen.insert(name).inserted {
                return (.malformedArchive, "refused: the zip archive holds \(name.prefix(80)) twice", name)
            }
            if entry.flags & 0x01 != 0 {
                return (.malformedArchive, "refused: \(name.prefix(80)) is encrypted; exports never are (unzip it with its password first)", name)
            }
            if entry.method != 0 && entry.method != 8 {
                return (.malformedArchive, "refused: \(name.prefix(80)) uses compression method \(entry.method); only stored and deflated entries are read", name)
            }
        }
        return nil
    }

    static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    static func u32(_ b: [UInt8], _ i: Int) -> UInt32 { UInt32(u16(b, i)) | UInt32(u16(b, i + 2)) << 16 }
    static func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32 }
}

/// How far a zip entry may expand: the limit a zip bomb meets. Health exports deflate 10–30
/// times; the default allows 1000 times (`ExportReader.Opening.maximumExpansion` changes it),
/// and any size up to 256 GiB.
public enum ZipLimits {
    public static let defaultRatio: UInt64 = 1000
    public static let maximumSize: UInt64 = 256 << 30
}
