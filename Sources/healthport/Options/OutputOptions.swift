import ArgumentParser

/// The formats `convert` writes.
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

struct FilterOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp("Keep only this type (StepCount, HKQuantityTypeIdentifierHeartRate, Workout, …); repeat or separate with commas.", valueName: "type"))
    var type: [String] = []
}
