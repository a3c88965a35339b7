import Foundation
import Testing
import HealthTestSupport

/// Outputs that are not plain files: a symbolic link is followed (its target replaced, the link
/// kept), a FIFO or a device is written through as a stream (never replaced by a file).
@Suite struct SpecialOutputTests {
    @Test func linksAreFollowedAndFIFOsAndDevicesWrittenThrough() throws {
        let directory = try Fixtures.temporaryDirectory()
        let target = directory.appendingPathComponent("target.ndjson")
        let link = directory.appendingPathComponent("link.ndjson")
        try Data("old\n".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "target.ndjson")
        #expect(try healthport("convert", sampleZip, "--type", "BodyMass", "--output", link.path, "-q").status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "target.ndjson")
        #expect(try String(contentsOf: target, encoding: .utf8).hasPrefix("{\"kind\":\"export\""))

        // A policy behind a link: auth request changes the file the link points to.
        let policy = directory.appendingPathComponent("real-policy.json")
        let policyLink = directory.appendingPathComponent("policy.json")
        #expect(try healthport("auth", "request", "--policy", policy.path, "--read", "StepCount", "--grant", "--consumer", "x").status == 0)
        try FileManager.default.createSymbolicLink(atPath: policyLink.path, withDestinationPath: policy.path)
        #expect(try healthport("auth", "request", "--policy", policyLink.path, "--read", "HeartRate", "--deny").status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: policyLink.path) == policy.path)
        #expect(try String(contentsOf: policy, encoding: .utf8).contains("HKQuantityTypeIdentifierHeartRate"))

        // A FIFO: the reader gets the stream, the FIFO stays a FIFO.
        let fifo = directory.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/sh")
        let copy = directory.appendingPathComponent("from-fifo.ndjson").path
        reader.arguments = ["-c", "cat '\(fifo)' > '\(copy)'"]
        try reader.run()
        #expect(try healthport("convert", sampleZip, "--type", "BodyMass", "--output", fifo, "-q").status == 0)
        reader.waitUntilExit()
        var status = stat()
        #expect(stat(fifo, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO)
        let copied = try Data(contentsOf: URL(fileURLWithPath: copy))
        let expected = try Data(contentsOf: target)
        #expect(copied == expected)
        // /dev/null and /dev/stdout stay devices.
        #expect(try healthport("convert", sampleZip, "--type", "BodyMass", "--output", "/dev/null", "-q").status == 0)
        #expect(stat("/dev/null", &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR)
        let stdout = try healthport("convert", sampleZip, "--type", "BodyMass", "--output", "/dev/stdout", "-q")
        #expect(stdout.status == 0 && stdout.stdout == expected)
    }
}
