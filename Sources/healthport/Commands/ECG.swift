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

        @OptionGroup var records: AttachmentRecordOptions
        @OptionGroup var diagnostics: DiagnosticOptions

        func run() throws {
            let log = Diagnostics(diagnostics)
            try log.run {
                try ElectrocardiogramRun(try records.request(command: "ecg")).run(reporter: log.reporter(), cancellation: Signals.cancellation)
            }
        }
    }
}
