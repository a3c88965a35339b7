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

        @OptionGroup var output: RecordOutputOptions

        @OptionGroup var diagnostics: DiagnosticOptions

        func run() throws {
            let log = Diagnostics(diagnostics)
            try log.run {
                let json = try output.writesJSONDocument(command: "ecg")
                var run = ElectrocardiogramRun(export: input.export, query: try filter.makeQuery(), json: json, output: output.output)
                run.reading = input.parsing.reading
                try run.run(reporter: log.reporter(), cancellation: Signals.cancellation)
            }
        }
    }
}
