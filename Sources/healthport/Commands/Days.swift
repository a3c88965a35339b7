import ArgumentParser
import HealthEngine
import HealthOutput
import HealthQuery
import HealthportCommandLine

extension Healthport {
    /// `healthport days`: one row per local day, its measures side by side, as a person opens
    /// them in a spreadsheet.
    struct Days: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One row per day: steps, distance, energy, exercise, stand hours, heart rate, HRV, weight, sleep and workouts side by side, with Apple's rings.",
            discussion: "Each value is the daily summary's, sources merged like the Health app; --period week|month gives totals and daily averages. See healthport-days(1).")

        @OptionGroup var input: ExportOrStoreOptions
        @OptionGroup var filter: FilterOptions
        @OptionGroup var table: SummaryTableOptions

        @Option(name: .long, help: ArgumentHelp("Weeks (from Mondays) or months instead of days: totals and daily averages, partial periods marked.", valueName: "week|month"))
        var period: DayPeriods.Period? = nil

        @OptionGroup var evening: EveningOption

        @OptionGroup var diagnostics: DiagnosticOptions

        func validate() throws {
            if filter.unit != nil { throw ValidationError("--unit does not apply: each column has its unit in its name") }
            _ = try evening.seconds()
        }

        func run() throws {
            let log = Diagnostics(diagnostics)
            try log.run {
                var run = DayTableRun(input: input.objectInput, query: try filter.makeQuery())
                run.reading = input.parsing.reading
                run.reading.jobs = table.jobs
                run.settings = try table.settings(filter: filter)
                run.settings.evening = try evening.seconds()
                run.period = period
                let result = try log.perform(showing: diagnostics) {
                    try run.write(
                        format: table.format, to: table.output, parquet: table.parquet, byteOrderMark: table.bom, reporter: $0, cancellation: $1)
                }
                log.repeats(result.warnings)
                log.omhSummary(result.omh)
                log.fhirSummary(result.fhir)
            }
        }
    }
}
