import ArgumentParser
import HealthEngine
import HealthOutput
import HealthQuery
import HealthportCommandLine

extension Healthport {
    /// `healthport workouts`: one row per workout, as the Health app lists them.
    struct Workouts: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One row per workout: the activity in words, duration, distance, active energy, and the heart rate recorded during it.",
            discussion: "The heart rate is computed from the samples inside the workout, all sources together. See healthport-workouts(1).")

        @OptionGroup var input: ExportOrStoreOptions
        @OptionGroup var filter: FilterOptions
        @OptionGroup var table: SummaryTableOptions
        @OptionGroup var diagnostics: DiagnosticOptions

        func validate() throws {
            if filter.unit != nil { throw ValidationError("--unit does not apply: each column has its unit in its name") }
        }

        func run() throws {
            let log = Diagnostics(diagnostics)
            try log.run {
                try table.write(.workouts, of: try table.run(input: input, filter: filter), log: log, showing: diagnostics)
            }
        }
    }
}
