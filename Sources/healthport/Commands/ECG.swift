import ArgumentParser
import HealthEngine
import HealthOutput
import HealthQuery
import HealthportCommandLine

extension Healthport {
    /// `healthport ecg`: the Apple Watch electrocardiograms.
    struct ECG: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ecg",
            abstract: "Electrocardiograms: classification, sample rate, lead and microvolt samples.",
            discussion: "See healthport-ecg(1).")

        @OptionGroup var input: InputOptions
        @OptionGroup var filter: FilterOptions

        @Option(name: .shortAndLong, help: "Output: ndjson (default) or json.")
        var format: ObjectFormat = .ndjson

        @Option(name: .shortAndLong, help: ArgumentHelp("A file; default standard output.", valueName: "path"))
        var output: String = "-"

        @OptionGroup var diagnostics: DiagnosticOptions

        func run() throws {
            let log = Diagnostics(quiet: diagnostics.quiet)
            try log.run {
                guard format == .ndjson || format == .json else { throw QueryError(.errorInvalidArgument, "ecg writes ndjson or json") }
                var run = ElectrocardiogramRun(export: input.export, query: try filter.makeQuery(), json: format == .json, output: output)
                run.reading = input.parsing.reading
                try run.run(reporter: log.reporter(), cancellation: Signals.cancellation)
            }
        }
    }
}
