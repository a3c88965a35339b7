import ArgumentParser
import HealthEngine
import HealthOutput
import HealthQuery
import HealthportCommandLine

extension Healthport {
    /// `healthport summary`: one row per type and local day, sources merged as the Health app
    /// merges them (the numbers of `stats`, for every type at once).
    struct Summary: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The daily summary: each type's total, average, minimum, maximum or time per local day, sources merged like the Health app.",
            discussion: "The numbers of healthport stats --interval day, for every type in one pass. See healthport-summary(1).")

        @OptionGroup var input: ExportOrStoreOptions
        @OptionGroup var filter: FilterOptions
        @OptionGroup var table: SummaryTableOptions
        @OptionGroup var diagnostics: DiagnosticOptions

        func validate() throws {
            if filter.unit != nil { throw ValidationError("--unit does not apply: the summary writes each type in its canonical unit") }
        }

        func run() throws {
            let log = Diagnostics(diagnostics)
            try log.run {
                try table.write(.daily, of: try table.run(input: input, filter: filter), log: log, showing: diagnostics)
            }
        }
    }
}
