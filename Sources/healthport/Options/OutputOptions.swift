import ArgumentParser
import HealthEngine
import HealthOutput

extension ObjectFormat: ExpressibleByArgument {}

struct OutputOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "Output format: ndjson (default), json, csv, or export (Apple's export.xml; convert and query).")
    var format: ObjectFormat = .ndjson

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Where to write: a file (ndjson, json, export; X.zip makes an export archive), a folder (csv), or - for standard output (default).", valueName: "path"),
        completion: .file())
    var output: String = "-"
}
