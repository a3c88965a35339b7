import ArgumentParser
import Foundation
import HealthEngine
import HealthQuery
import HealthportCommandLine

extension Healthport {
    /// `healthport report`: one self-contained HTML file a person opens, prints or sends.
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One self-contained HTML report (charts and tables, nothing fetched) of an export or the store.",
            discussion: """
                Daily values per type (sums with sources merged as stats merges them, or \
                minimum–average–maximum), activity, heart with ECGs, body, sleep stages, workouts \
                with their routes, and data quality; limited by --policy. Without an export, reads \
                the store. See healthport-report(1).
                """)

        @OptionGroup var input: ExportOrStoreOptions
        @OptionGroup var filter: FilterOptions

        @Option(
            name: .shortAndLong, help: ArgumentHelp("The HTML file to write (default: standard output).", valueName: "path"),
            completion: .file(extensions: ["html"]))
        var output: String = "-"

        @OptionGroup var diagnostics: DiagnosticOptions

        func validate() throws {
            if filter.unit != nil { throw ValidationError("--unit does not apply to a report: each type is shown in its own unit") }
        }

        func run() throws {
            let log = Diagnostics(diagnostics)
            try log.run {
                var run = ReportRun(input: input.objectInput, query: try filter.makeQuery(), output: output)
                run.reading = input.parsing.reading
                run.timeZone = try filter.tz.map(TimeZoneNameResolver.resolve)
                let summary = try log.perform(showing: diagnostics) { try run.run(reporter: $0, cancellation: $1) }
                log.repeats(summary.warnings)
            }
        }
    }
}
