import Foundation

/// Runs a built executable and collects its standard output and standard error separately,
/// reading both pipes concurrently (waiting first would deadlock once the output outgrows the
/// pipe buffer).
public enum CommandRunner {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: Data
        public var stderr: Data
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    private final class Collector: @unchecked Sendable {
        var data = Data()
    }

    /// Runs a program to completion; `environment` entries are added to (or replace) the
    /// current environment's.
    public static func run(
        _ executable: URL, _ arguments: [String], stdin: Data? = nil, currentDirectory: URL? = nil,
        environment: [String: String] = [:]
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        let group = DispatchGroup()
        let stdoutCollector = Collector()
        let stderrCollector = Collector()
        group.enter()
        DispatchQueue.global().async {
            stdoutCollector.data = readToEnd(out.fileHandleForReading)
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            stderrCollector.data = readToEnd(err.fileHandleForReading)
            group.leave()
        }
        if let stdin {
            try? input.fileHandleForWriting.write(contentsOf: stdin)
        }
        try? input.fileHandleForWriting.close()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: stdoutCollector.data, stderr: stderrCollector.data)
    }

    /// Everything a pipe delivers until its writers close it. By hand, because Foundation's
    /// `readDataToEndOfFile()` traps (`try!`) when a read is interrupted by a signal (`EINTR`),
    /// which tests that signal their children meet now and then.
    public static func readToEnd(_ handle: FileHandle) -> Data {
        var data = Data()
        while let chunk = readSome(handle) { data.append(chunk) }
        return data
    }

    /// What one read of a pipe returns (waiting for it), retried when a signal interrupts it;
    /// `nil` at its end.
    public static func readSome(_ handle: FileHandle) -> Data? {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 { return Data(chunk[0..<count]) }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }
}

/// Where test inputs live.
public enum Fixtures {
    /// The package root, found from this file's path.
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// `../shared` beside the checkout (CI's), or the folder `HEALTHPORT_SHARED` names: real
    /// exports and other people's files, which this repository never copies. Tests that need
    /// them are skipped when it is absent, and say so (`hasSamples`).
    public static var shared: URL {
        if let path = ProcessInfo.processInfo.environment["HEALTHPORT_SHARED"] { return URL(fileURLWithPath: path) }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    }

    /// The real public exports (`shared/samples`, see its README), or the folder
    /// `HEALTHPORT_SAMPLES` names.
    public static var samples: URL {
        if let path = ProcessInfo.processInfo.environment["HEALTHPORT_SAMPLES"] { return URL(fileURLWithPath: path) }
        return shared.appendingPathComponent("samples")
    }

    /// The sample folders the tests read (the others in `samples` are for the check scripts).
    public static let sampleFolders = [
        "aleksi-applehealth", "alxdrcirilo-apple-health-parser", "dogsheep-healthkit-to-sqlite", "nicolasreyrolle-apple-health-analyzer",
        "opendroid-hk", "tdda-applehealthdata",
    ]

    /// Whether the real exports are here (a clone alone has none: the tests that read them are
    /// skipped, with this reason).
    public static var hasSamples: Bool {
        sampleFolders.allSatisfy { FileManager.default.fileExists(atPath: samples.appendingPathComponent($0).path) }
    }

    /// The files of the sample folders whose names end with one of `suffixes`, relative to
    /// `samples`, sorted; none when the samples are absent.
    public static func sampleFiles(endingWith suffixes: [String]) -> [String] {
        var found: [String] = []
        for folder in sampleFolders {
            guard let files = FileManager.default.enumerator(atPath: samples.appendingPathComponent(folder).path) else { continue }
            for case let file as String in files where suffixes.contains(where: { file.hasSuffix($0) }) { found.append(folder + "/" + file) }
        }
        return found.sorted()
    }

    public static var sampleData: URL { packageRoot.appendingPathComponent("SampleData") }

    /// A fresh temporary folder.
    public static func temporaryDirectory() throws -> URL {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("healthport-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
