import ArgumentParser
import HealthEngine
import HealthQuery
import HealthportCommandLine

extension Healthport {
    /// `healthport changes`: what changed in an export since an anchor (HKAnchoredObjectQuery).
    struct Changes: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List what was added and deleted since an anchor, in batches, like HKAnchoredObjectQuery.",
            discussion: """
                Without --anchor every matching object is added. Without an export, reads the \
                store, whose anchors are numbers. See healthport-changes(1).
                """)

        @OptionGroup var input: ExportOrStoreOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var filter: FilterOptions

        @Option(
            name: .long,
            help: ArgumentHelp(
                "The anchor of what was already seen: a file (from anchor, diff or a previous changes), or with the store a number.",
                valueName: "anchor"))
        var anchor: String? = nil

        @Option(name: .long, help: ArgumentHelp("Write the new anchor to this file (atomically, mode 0600).", valueName: "file"))
        var anchorOutput: String? = nil

        @Option(name: .long, help: ArgumentHelp("Return at most this many changes (one batch).", valueName: "n"))
        var limit: Int? = nil

        @Flag(name: .long, help: "With --store: keep running, writing the changes of every later import as new batches (NDJSON).")
        var follow = false

        @OptionGroup var deidentification: DeidentifyOptions

        @OptionGroup var diagnostics: DiagnosticOptions

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more") }
            if follow, input.storePath == nil {
                throw ValidationError("--follow needs a store (--store): an export file never changes; import new exports into a store and follow it")
            }
        }

        func run() throws {
            let log = Diagnostics(diagnostics)
            try log.run {
                var query = try filter.makeQuery()
                try deidentification.apply(to: &query, log: log)
                let source = input.objectInput
                var run = ChangesRun(
                    input: source, query: query, anchor: try ChangesAnchor.parse(anchor, for: source), limit: limit,
                    format: output.format, output: output.output, anchorOutput: anchorOutput)
                run.anchorName = anchor
                run.parquet = output.parquet
                run.reading = input.parsing.reading
                run.follow = follow
                run.policyFile = filter.policy
                let summary = try log.perform(showing: diagnostics) { try run.run(reporter: $0, cancellation: $1) }
                log.repeats(summary.warnings)
                log.fhirSummary(summary.fhir)
            }
        }
    }
}
