import ArgumentParser
import HealthEngine
import HealthOutput
import HealthQuery
import HealthportCommandLine

extension Healthport {
    /// `healthport clinical`: clinical records with their FHIR resources.
    struct Clinical: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Clinical records with their FHIR resources embedded.", discussion: "See healthport-clinical(1).")

        @OptionGroup var input: InputOptions
        @OptionGroup var filter: FilterOptions

        @OptionGroup var output: RecordOutputOptions

        @OptionGroup var diagnostics: DiagnosticOptions

        func run() throws {
            let log = Diagnostics(diagnostics)
            try log.run {
                let json = try output.writesJSONDocument(command: "clinical")
                var run = ClinicalRecordRun(export: input.export, query: try filter.makeQuery(), json: json, output: output.output)
                run.reading = input.parsing.reading
                let summary = try run.run(reporter: log.reporter(), cancellation: Signals.cancellation)
                log.repeats(summary.warnings)
            }
        }
    }
}
