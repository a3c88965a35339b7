import Foundation
import HealthTestSupport

/// The built `healthport` binary: `HEALTHPORT_BINARY`, or beside the test bundle.
var healthportBinary: URL {
    if let path = ProcessInfo.processInfo.environment["HEALTHPORT_BINARY"], !path.isEmpty { return URL(fileURLWithPath: path) }
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent("healthport")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    return Fixtures.packageRoot.appendingPathComponent(".build/debug/healthport")
}

func healthport(_ arguments: String..., stdin: Data? = nil, in directory: URL? = nil) throws -> CommandRunner.Result {
    try CommandRunner.run(healthportBinary, arguments, stdin: stdin, currentDirectory: directory)
}

var sampleZip: String { Fixtures.sampleData.appendingPathComponent("export.zip").path }

func sampleManifest() throws -> ExportGenerator.Manifest {
    try JSONDecoder().decode(
        ExportGenerator.Manifest.self, from: Data(contentsOf: Fixtures.sampleData.appendingPathComponent("manifest.json")))
}

/// Parses NDJSON, one object per line.
func ndjsonObjects(_ data: Data) throws -> [[String: Any]] {
    try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
    }
}


func healthport(_ arguments: [String], stdin: Data? = nil) throws -> CommandRunner.Result {
    try CommandRunner.run(healthportBinary, arguments, stdin: stdin)
}

/// Writes `ExportGenerator`'s export of `days` days to `url` (a large input for the tests that
/// need one), and returns its path.
@discardableResult
func writeGeneratedExport(days: Int, to url: URL) throws -> String {
    var options = ExportGenerator.Options()
    options.days = days
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
    let handle = try FileHandle(forWritingTo: url)
    _ = ExportGenerator(options: options).writeDocument(to: handle)
    try handle.close()
    return url.path
}
