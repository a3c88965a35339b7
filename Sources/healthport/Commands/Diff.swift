import ArgumentParser
import HealthEngine
import HealthQuery
import HealthportCommandLine

extension Healthport {
    /// `healthport diff`: the changes from one export to another.
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List what was added and deleted between two exports.",
            discussion: "Equivalent to anchor OLD, then changes NEW with that anchor. See healthport-diff(1).")

        @Argument(help: ArgumentHelp("The older export.", valueName: "old-export"), completion: .file(extensions: ["zip", "xml"]))
        var oldExport: String

        @Argument(help: ArgumentHelp("The newer export.", valueName: "new-export"), completion: .file(extensions: ["zip", "xml"]))
        var newExport: String

        @OptionGroup var parsing: ParserOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var filter: FilterOptions

        @Option(name: .long, help: ArgumentHelp("Also write the anchor of the new export to this file.", valueName: "file"))
        var anchorOutput: String? = nil

        @OptionGroup var deidentification: DeidentifyOptions

        @OptionGroup var diagnostics: DiagnosticOptions

        func run() throws {
            let log = Diagnostics(diagnostics)
            try log.run {
                var query = try filter.makeQuery()
                try deidentification.apply(to: &query, log: log)
                var run = DiffRun(
                    oldExport: oldExport, newExport: newExport, query: query, format: output.format, output: output.output,
                    anchorOutput: anchorOutput)
                run.parquet = output.parquet
                run.reading = parsing.reading
                let summary = try log.perform(showing: diagnostics) { try run.run(reporter: $0, cancellation: $1) }
                log.repeats(summary.warnings)
                log.fhirSummary(summary.fhir)
            }
        }
    }
}
