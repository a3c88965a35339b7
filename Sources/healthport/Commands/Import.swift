import ArgumentParser
import Foundation
import HealthExport
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
                let path = StoreLocation.resolve(store)
                let reader = try ExportReader.open(input.export)
                let healthStore = try HealthStore.openForWriting(at: path)
                let progress = ProgressLine(forced: diagnostics.progress, quiet: diagnostics.quiet)
                let summary: HealthStore.ImportSummary
                let source = ExportObjectSource(
                    reader,
                    warning: { warning in
                        progress.clear()
                        log.warning(warning)
                    }, progress: { progress.update($0) })
                do {
                    summary = try healthStore.importObjects(
                        from: source, inputName: input.export == "-" ? "-" : URL(fileURLWithPath: input.export).lastPathComponent,
                        force: force, objectsRead: { progress.objects = $0 })
                } catch {
                    progress.clear()
                    throw error
                }
                progress.clear()
                log.repeats(source.summary?.warnings ?? [])
                let text = summary.unchanged
                    ? "\(summary.objects) objects, nothing new; anchor \(summary.anchor)"
                    : "\(summary.objects) objects, \(summary.added) added, \(summary.deleted) deleted; anchor \(summary.anchor)"
                print(text)
            }
        }
    }
}
