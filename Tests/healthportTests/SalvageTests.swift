import Foundation
import HealthTestSupport
import Testing

/// Broken exports: refused by default with the place of the break; with `--salvage`, every
/// complete object before it, and status 3.
@Suite struct SalvageTests {
    static func lines(_ data: Data) -> [Substring] { String(decoding: data, as: UTF8.self).split(separator: "\n") }

    /// Every conversion here names the person's zone (`--tz`): a cut-off export's own sleep and
    /// workouts, which decide it otherwise, are cut too (`PersonZone`).
    static func fullConversion() throws -> [Substring] { lines(try healthport("convert", sampleZip, "--tz", "Europe/Paris", "-q").stdout) }

    @Test(arguments: [0.3, 0.62, 0.97])
    func aCutOffExportXMLIsSalvagedUpToTheCut(fraction: Double) throws {
        let xml = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/unzip"), ["-p", sampleZip, "apple_health_export/export.xml"]).stdout
        let cut = try Fixtures.temporaryDirectory().appendingPathComponent("export.xml")
        try xml.prefix(Int(Double(xml.count) * fraction)).write(to: cut)
        let refused = try healthport("convert", cut.path, "--tz", "Europe/Paris", "-q")
        #expect(refused.status == 65)
        #expect(refused.stderrText.hasPrefix("healthport: \(cut.path):") && refused.stderrText.contains("cut off"))
        let full = try Self.fullConversion()
        // Standard output streams: what was written before the failure (status 65 says it is
        // incomplete) is whole lines, each the full conversion's, never a line cut in two.
        #expect(refused.stdout.last == 0x0A)
        let before = Self.lines(refused.stdout)
        #expect(before.count > 1 && Array(full.prefix(before.count)) == before)
        let salvaged = try healthport("convert", cut.path, "--tz", "Europe/Paris", "-q", "--salvage")
        #expect(salvaged.status == 3, "\(salvaged.stderrText)")
        let got = Self.lines(salvaged.stdout)
        // The header, then a prefix of the export's objects: nothing invented, nothing cut.
        #expect(got.count > 1 && got.count < full.count)
        #expect(Array(full.prefix(got.count)) == got)
        #expect(salvaged.stderrText.contains("salvaged \(got.count - 1) objects; the export breaks here"))
    }

    @Test func aCutOffZipIsRefusedThenSalvaged() throws {
        let zip = try Data(contentsOf: URL(fileURLWithPath: sampleZip))
        let cut = try Fixtures.temporaryDirectory().appendingPathComponent("export.zip")
        try zip.prefix(zip.count * 2 / 3).write(to: cut)
        let refused = try healthport("convert", cut.path, "-q")
        #expect(refused.status == 65 && refused.stderrText.contains("cut off after byte \(zip.count * 2 / 3)"), "\(refused.stderrText)")
        let salvaged = try healthport("convert", cut.path, "-q", "--salvage", "--format", "csv", "--output", cut.deletingLastPathComponent().appendingPathComponent("csv").path)
        #expect(salvaged.status == 3, "\(salvaged.stderrText)")
        #expect(salvaged.stderrText.contains("(apple_health_export/export.xml):"))
        let ndjson = Self.lines(try healthport("convert", cut.path, "--tz", "Europe/Paris", "-q", "--salvage").stdout)
        let full = try Self.fullConversion()
        #expect(ndjson.count > 100 && ndjson.count < full.count && Array(full.prefix(ndjson.count)) == ndjson)
    }

    @Test func aBreakInTheMiddleStopsTheSalvageThereAndAWholeExportIsUntouched() throws {
        let xml = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/unzip"), ["-p", sampleZip, "apple_health_export/export.xml"]).stdoutText
        var lines = xml.components(separatedBy: "\n")
        let broken = lines.indices.filter { lines[$0].hasPrefix(" <Record ") }[1000]
        lines[broken] = " <Record type=\"HKQuantityTypeIdentifierHeartRate\" <<broken"
        let file = try Fixtures.temporaryDirectory().appendingPathComponent("export.xml")
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let salvaged = try healthport("convert", file.path, "--tz", "Europe/Paris", "-q", "--salvage")
        #expect(salvaged.status == 3)
        #expect(salvaged.stderrText.contains("\(file.path):\(broken + 1):"))
        #expect(Self.lines(salvaged.stdout).count == 1001)
        // An intact export: --salvage changes nothing.
        let whole = try healthport("convert", sampleZip, "--tz", "Europe/Paris", "-q", "--salvage")
        let full = try Self.fullConversion()
        #expect(whole.status == 0 && Self.lines(whole.stdout) == full)
    }
}
