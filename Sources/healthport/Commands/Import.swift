import ArgumentParser
import HealthEngine
import HealthStore

extension Healthport {
    /// `healthport import`: an export into the embedded store.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import an export into the store: add what is new, record what disappeared.",
            discussion: """
                All or nothing: an interrupted import leaves the store at its previous anchor. \
                Importing the same export again changes nothing. See healthport-import(1) and \
                healthport-store(5).
                """)

        @OptionGroup var input: InputOptions

        @Option(
            name: .long,
            help: ArgumentHelp(
                "The store to import into, created if missing (default: $HEALTHPORT_STORE, else ~/.local/share/healthport/health.sqlite).",
                valueName: "path"))
        var store: String? = nil

        @Flag(name: .long, help: "Import even an export older than the last import, or one that shares little with the store.")
        var force = false

        @OptionGroup var diagnostics: DiagnosticOptions

        func run() throws {
            let log = Diagnostics(quiet: diagnostics.quiet)
            try log.run {
                var run = ImportRun(export: input.export, store: StoreLocation.resolve(store))
                run.force = force
                let summary = try log.perform(showing: diagnostics) { try run.run(reporter: $0, cancellation: $1) }
                log.repeats(summary.warnings)
                let result = summary.result
                let text = result.unchanged
                    ? "\(result.objects) objects, nothing new; anchor \(result.anchor)"
                    : "\(result.objects) objects, \(result.added) added, \(result.deleted) deleted; anchor \(result.anchor)"
                print(text)
            }
        }
    }
}
