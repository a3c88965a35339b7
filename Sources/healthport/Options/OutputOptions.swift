import HealthOutput
import ArgumentParser

/// The formats `convert` and `query` write.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case ndjson, json, csv
}

struct OutputOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "Output format: ndjson (default), json or csv.")
    var format: OutputFormat = .ndjson

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Where to write: a file (ndjson, json), a folder (csv), or - for standard output (default).", valueName: "path"),
        completion: .file())
    var output: String = "-"
}

extension AttachmentRecordWriter {
    /// A writer to `path`, or to standard output for `-` (the CLI's convention, not the library's).
    convenience init(json: Bool, path: String) throws {
        if path == "-" {
            self.init(json: json, buffer: OutputBuffer(descriptor: 1), file: nil)
        } else {
            self.init(json: json, buffer: nil, file: try AtomicFile(destination: path))
        }
    }
}
