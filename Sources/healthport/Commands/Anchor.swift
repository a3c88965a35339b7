import ArgumentParser
import HealthEngine
import HealthQuery
import HealthportCommandLine

extension Healthport {
    /// `healthport anchor`: an anchor for everything an export holds.
    struct Anchor: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a small anchor standing for everything in an export, so the export itself can go.",
            discussion: "See healthport-anchor(1).")

        @OptionGroup var input: InputOptions
        @OptionGroup var filter: FilterOptions

        @Option(name: .shortAndLong, help: ArgumentHelp("The anchor file to write (atomically, mode 0600).", valueName: "file"))
        var output: String

        @OptionGroup var diagnostics: DiagnosticOptions

        func run() throws {
            let log = Diagnostics(diagnostics)
            try log.run {
                var run = AnchorRun(export: input.export, query: try filter.makeQuery(), output: output)
                run.reading = input.parsing.reading
                let summary = try log.perform(showing: diagnostics) { try run.run(reporter: $0, cancellation: $1) }
                log.repeats(summary.warnings)
            }
        }
    }
}
