import Foundation
import Testing
import HealthTestSupport

/// Inputs that cannot seek — a FIFO, `<(unzip -p …)`, `/dev/stdin` — are read like standard
/// input: the bytes the format sniffing takes are replayed (they failed with "does not start
/// with XML").
@Suite struct StreamedInputTests {
    func run(_ script: String) throws -> CommandRunner.Result {
        let path = healthportBinary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try CommandRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", "export PATH='\(path)'; " + script], currentDirectory: Fixtures.packageRoot)
    }

    @Test func fifosProcessSubstitutionAndDevStdinAreRead() throws {
        let expected = try healthport("convert", sampleZip, "--type", "BodyMass", "-q").stdout
        #expect(!expected.isEmpty)
        let zip = sampleZip
        for script in [
            "healthport convert <(unzip -p '\(zip)' apple_health_export/export.xml) --type BodyMass -q",
            "unzip -p '\(zip)' apple_health_export/export.xml | healthport convert /dev/stdin --type BodyMass -q",
            "healthport convert <(cat '\(zip)') --type BodyMass -q",
        ] {
            let result = try run(script)
            #expect(result.status == 0, "\(script): \(result.stderrText)")
            #expect(result.stdout == expected, "\(script)")
        }
        let directory = try Fixtures.temporaryDirectory()
        let fifo = directory.appendingPathComponent("export.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try run("cat '\(zip)' > '\(fifo)' & healthport convert '\(fifo)' --type BodyMass -q")
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdout == expected)
    }
}
