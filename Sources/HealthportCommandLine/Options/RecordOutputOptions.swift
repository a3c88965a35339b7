import ArgumentParser
import HealthOutput
import HealthQuery

/// The output of a command that writes records whole, with what their side files hold
/// (`clinical`, `ecg`): NDJSON or one JSON document, to standard output or a file.
package struct RecordOutputOptions: ParsableArguments {
    package init() {}

    @Option(name: .shortAndLong, help: "Output: ndjson (default) or json.")
    package var format: ObjectFormat = .ndjson

    @Option(name: .shortAndLong, help: ArgumentHelp("A file; default standard output.", valueName: "path"))
    package var output: String = "-"

    /// Whether one JSON document is asked for (else NDJSON).
    ///
    /// - Throws: `QueryError` for any other format, naming `command`.
    package func writesJSONDocument(command: String) throws -> Bool {
        guard format == .ndjson || format == .json else { throw QueryError(.errorInvalidArgument, "\(command) writes ndjson or json") }
        return format == .json
    }
}
