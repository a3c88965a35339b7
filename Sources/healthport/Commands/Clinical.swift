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

        @OptionGroup var records: AttachmentRecordOptions
        @OptionGroup var diagnostics: DiagnosticOptions

        func run() throws {
            let log = Diagnostics(diagnostics)
            try log.run {
                let summary = try ClinicalRecordRun(try records.request(command: "clinical"))
                    .run(reporter: log.reporter(), cancellation: Signals.cancellation)
                log.repeats(summary.warnings)
            }
        }
    }
}
