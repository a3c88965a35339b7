import HealthOutput
import ArgumentParser

/// The formats `convert` and `query` write.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case ndjson, json, csv
    /// Apple Health's own export.xml (convert and query): a file, standard output, or with
    /// `--output X.zip` an export archive.
    case export
}

struct OutputOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "Output format: ndjson (default), json, csv, or export (Apple's export.xml; convert and query).")
    var format: OutputFormat = .ndjson

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Where to write: a file (ndjson, json, export; X.zip makes an export archive), a folder (csv), or - for standard output (default).", valueName: "path"),
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
