import ArgumentParser
import Foundation
import HealthEngine
import HealthStore
import HealthportCommandLine

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

        @Argument(
            help: ArgumentHelp("The export: export.zip, the unzipped folder, export.xml, or - for standard input.", valueName: "export"),
            completion: .file(extensions: ["zip", "xml"]))
        var export: String? = nil

        @OptionGroup var parsing: ParserOptions

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Keep running: import every export in this folder the store has not seen, oldest first, then each new one once it is complete.",
                valueName: "folder"),
            completion: .directory)
        var watch: String? = nil

        @Option(
            name: .long,
            help: ArgumentHelp("With --watch: how long an export must stay unchanged before it is judged complete or cut off (default 5).", valueName: "seconds"))
        var settle: Double = 5

        @Option(
            name: .long,
            help: ArgumentHelp(
                "The store to import into, created if missing (default: $HEALTHPORT_STORE, else ~/.local/share/healthport/health.sqlite).",
                valueName: "path"))
        var store: String? = nil

        @Flag(name: .long, help: "Import even an export older than the last import, or one that shares little with the store.")
        var force = false

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Write the store's anchor after the import to this file (atomically, mode 0600), for changes --store --anchor.",
                valueName: "file"))
        var anchorOutput: String? = nil

        @OptionGroup var diagnostics: DiagnosticOptions

        func validate() throws {
            if (export == nil) == (watch == nil) { throw ValidationError("give an export, or --watch FOLDER") }
            if !(settle >= 0.1 && settle <= 86_400) { throw ValidationError("--settle must be between 0.1 and 86400 seconds") }
            if watch != nil, anchorOutput != nil {
                throw ValidationError("--anchor-output goes with one import; a watcher's imports are followed with changes --store --follow")
            }
        }

        func run() throws {
            let log = Diagnostics(diagnostics)
            if let watch {
                try log.run {
                    var run = ImportWatchRun(folder: watch, store: StoreLocation.resolve(store, environment: ProcessInfo.processInfo.environment))
                    run.settle = settle
                    run.force = force
                    run.reading = parsing.reading
                    try run.run(reporter: log.reporter(), cancellation: Signals.cancellation) { name, outcome in
                        switch outcome {
                        case .imported(let result):
                            Self.printLine("\(name): " + Self.describe(result))
                        case .refused(let error):
                            log.error(error, at: name)
                        }
                    }
                }
                return
            }
            try log.run {
                var run = ImportRun(export: export ?? "-", store: StoreLocation.resolve(store, environment: ProcessInfo.processInfo.environment))
                run.force = force
                run.anchorOutput = anchorOutput
                run.reading = parsing.reading
                let summary = try log.perform(showing: diagnostics) { try run.run(reporter: $0, cancellation: $1) }
                log.repeats(summary.warnings)
                print(Self.describe(summary.result))
                if let zone = summary.result.summaryTimeZone {
                    log.note("the store's days are now cut in \(zone), which this export's samples name (the earlier imports named no zone: their days were cut at the export's offset); every summary was remade")
                }
            }
        }

        /// What an import did, for a person: counts only (the anchor is a token for programs:
        /// `--anchor-output`).
        static func describe(_ result: HealthStore.ImportSummary) -> String {
            result.unchanged
                ? "\(result.objects) objects, nothing new"
                : "\(result.objects) objects, \(result.added) added, \(result.deleted) deleted"
        }

        /// A line on standard output, flushed at once: a watcher's output is read as it comes.
        static func printLine(_ line: String) {
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
    }
}
