import Foundation
import Testing
import HealthTestSupport

/// An output that would replace an input is refused before anything is written: the export,
/// the zip, the store and an input folder survive byte for byte.
@Suite struct OutputIsInputTests {
    @Test func everyFormOfOutputOverInputIsRefused() throws {
        let directory = try Fixtures.temporaryDirectory()
        let zip = directory.appendingPathComponent("export.zip").path
        try FileManager.default.copyItem(atPath: sampleZip, toPath: zip)
        let folder = directory.appendingPathComponent("unzipped")
        _ = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/unzip"), ["-q", zip, "-d", folder.path])
        let xml = folder.appendingPathComponent("apple_health_export/export.xml").path
        let store = directory.appendingPathComponent("health.sqlite").path
        #expect(try healthport("import", zip, "--store", store, "-q").status == 0)
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("link.zip").path, withDestinationPath: zip)
        let before = try [zip, xml, store].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let attempts: [[String]] = [
            ["convert", xml, "--format", "export", "--output", xml],
            ["convert", zip, "--format", "export", "--output", zip],
            ["convert", zip, "--format", "ndjson", "--output", directory.appendingPathComponent("link.zip").path],
            ["convert", folder.path, "--format", "csv", "--output", folder.path],
            ["convert", xml, "--format", "csv", "--output", directory.path],
            ["query", "--store", store, "--output", store],
            ["query", "--store", store, "--output", store + "-wal"],
            ["changes", zip, "--output", zip],
            ["diff", zip, xml, "--output", xml],
            ["convert", zip, folder.path, "--partition", "person,type", "--format", "csv", "--output", folder.path],
            ["import", store, "--store", store],
            // Issue 36 (1): the anchor replaced the export it stands for.
            ["anchor", zip, "--output", zip],
            ["anchor", zip, "--output", directory.appendingPathComponent("link.zip").path],
            ["anchor", folder.path, "--output", xml],
        ]
        for arguments in attempts {
            let result = try healthport(arguments + ["-q"])
            #expect(result.status == 64, "\(arguments): \(result.stderrText)")
            #expect(result.stderrText.contains("would replace an input"), "\(arguments): \(result.stderrText)")
        }
        let after = try [zip, xml, store].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(after == before)
        // Beside the input is fine.
        #expect(try healthport("convert", zip, "--format", "export", "--output", directory.appendingPathComponent("copy.xml").path, "-q").status == 0)
    }
}
