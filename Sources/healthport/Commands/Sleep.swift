import ArgumentParser
import HealthEngine
import HealthOutput
import HealthQuery
import HealthportCommandLine

extension Healthport {
    /// `healthport sleep`: one row per night, as the Health app groups a night's sleep samples.
    struct Sleep: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sleep per night: in bed, asleep, each stage and awake, overlapping sources resolved, never added.",
            discussion: "A night runs from one evening boundary (--evening, 18:00) to the next and is named by its morning. See healthport-sleep(1).")

        @OptionGroup var input: ExportOrStoreOptions
        @OptionGroup var filter: FilterOptions
        @OptionGroup var table: SummaryTableOptions

        @OptionGroup var evening: EveningOption

        @OptionGroup var diagnostics: DiagnosticOptions

        func validate() throws {
            if filter.unit != nil { throw ValidationError("--unit does not apply to sleep") }
            _ = try evening.seconds()
        }

        func run() throws {
            let log = Diagnostics(diagnostics)
            try log.run {
                var run = try table.run(input: input, filter: filter)
                run.settings.evening = try evening.seconds()
                try table.write(.nights, of: run, log: log, showing: diagnostics)
            }
        }
    }
}
