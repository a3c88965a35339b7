import ArgumentParser
import Foundation
import HealthExport
import HealthModel
import HealthOutput
import HealthQuery
import HealthStore

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

        @OptionGroup var diagnostics: DiagnosticOptions

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more") }
        }

        func run() throws {
            let log = filter.diagnostics(diagnostics)
            try log.run {
                let executor = QueryExecutor(try filter.makeQuery())
                if let storePath = input.storePath {
                    try StoreChangesRun(executor: executor, output: output)
                        .run(store: try HealthStore.openForReading(at: storePath), anchor: anchor, limit: limit, anchorOutput: anchorOutput)
                    return
                }
                let hash = executor.query.identityHash
                let base: QueryAnchor
                if let anchor {
                    base = try QueryAnchor.load(from: anchor)
                    guard base.queryHash == hash else {
                        throw AnchorError("\(anchor): the anchor was made for another query (types, predicate, dates, sources or policy)")
                    }
                } else {
                    base = .origin(queryHash: hash)
                }
                try ChangesRun(executor: executor, output: output, diagnostics: diagnostics, log: log)
                    .run(export: input.export ?? "-", base: base, limit: limit, anchorOutput: anchorOutput)
            }
        }
    }

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
            let log = filter.diagnostics(diagnostics)
            try log.run {
                let executor = QueryExecutor(try filter.makeQuery())
                let (set, header) = try IdentityCollector.collect(export: input.export, executor: executor, diagnostics: diagnostics, log: log)
                let anchor = QueryAnchor(
                    base: set, baseExportDate: header.exportDate?.secondsSince1970, queryHash: executor.query.identityHash)
                try anchor.save(to: output)
            }
        }
    }

    /// `healthport diff`: the changes from one export to another.
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List what was added and deleted between two exports.",
            discussion: "Equivalent to anchor OLD, then changes NEW with that anchor. See healthport-diff(1).")

        @Argument(help: ArgumentHelp("The older export.", valueName: "old-export"), completion: .file(extensions: ["zip", "xml"]))
        var oldExport: String

        @Argument(help: ArgumentHelp("The newer export.", valueName: "new-export"), completion: .file(extensions: ["zip", "xml"]))
        var newExport: String

        @OptionGroup var output: OutputOptions
        @OptionGroup var filter: FilterOptions

        @Option(name: .long, help: ArgumentHelp("Also write the anchor of the new export to this file.", valueName: "file"))
        var anchorOutput: String? = nil

        @OptionGroup var diagnostics: DiagnosticOptions

        func run() throws {
            let log = filter.diagnostics(diagnostics)
            try log.run {
                let executor = QueryExecutor(try filter.makeQuery())
                let (set, header) = try IdentityCollector.collect(export: oldExport, executor: executor, diagnostics: diagnostics, log: log)
                let base = QueryAnchor(base: set, baseExportDate: header.exportDate?.secondsSince1970, queryHash: executor.query.identityHash)
                try ChangesRun(executor: executor, output: output, diagnostics: diagnostics, log: log)
                    .run(export: newExport, base: base, limit: nil, anchorOutput: anchorOutput)
            }
        }
    }
}

/// Reads an export into the identity set of what a query admits.
enum IdentityCollector {
    final class Sink: ObjectSink {
        let executor: QueryExecutor
        var set = IdentitySet()
        var header = ExportHeader()

        init(executor: QueryExecutor) { self.executor = executor }

        func exportDidBegin(_ header: ExportHeader) throws { self.header = header }

        func consume(_ object: HealthObject) throws {
            guard executor.admits(object) else { return }
            set.insert(object.uuid, type: object.objectType.identifier)
        }
    }

    static func collect(
        export: String, executor: QueryExecutor, diagnostics: DiagnosticOptions, log: Diagnostics
    ) throws -> (IdentitySet, ExportHeader) {
        let reader = try ExportReader.open(export)
        let sink = Sink(executor: executor)
        let progress = ProgressLine(forced: diagnostics.progress, quiet: diagnostics.quiet)
        let summary = try reader.read(
            into: sink, warning: { warning in
                progress.clear()
                log.warning(warning)
            }, progress: { value in
                progress.objects = sink.set.count
                progress.update(value)
            }, types: executor.typesToRead)
        progress.clear()
        log.repeats(summary.warnings)
        sink.set.finish()
        return (sink.set, sink.header)
    }
}

/// One pass over the new export: added objects streamed, deletions and the new anchor at the end.
struct ChangesRun {
    let executor: QueryExecutor
    let output: OutputOptions
    let diagnostics: DiagnosticOptions
    let log: Diagnostics

    final class Sink: ObjectSink {
        let executor: QueryExecutor
        let tracker: ChangeTracker
        let writer: ChangeWriter
        let baseExportDate: Int64?
        let log: Diagnostics
        var header = ExportHeader()
        var seenObjects = 0
        /// Added objects held back until the anchor is seen to belong to this export (one of its
        /// objects met), so that a foreign anchor usually fails before anything is written.
        var pending: [HealthObject] = []
        var confirmed = false
        static let pendingLimit = 5000

        func flush() throws {
            confirmed = true
            for object in pending { try writer.added(object) }
            pending.removeAll()
        }

        init(executor: QueryExecutor, tracker: ChangeTracker, writer: ChangeWriter, baseExportDate: Int64?, log: Diagnostics) {
            self.executor = executor
            self.tracker = tracker
            self.writer = writer
            self.baseExportDate = baseExportDate
            self.log = log
        }

        func exportDidBegin(_ header: ExportHeader) throws {
            self.header = header
            try tracker.checkTarget(exportDate: header.exportDate?.secondsSince1970)
            if let base = baseExportDate, let new = header.exportDate?.secondsSince1970, new < base {
                log.warning("the new export is older than the anchor's (or the exports are given in the wrong order)")
            }
            try writer.begin(executor.header(header))
        }

        func consume(_ object: HealthObject) throws {
            guard executor.admits(object) else { return }
            seenObjects += 1
            let visible = executor.transformsObjects ? try executor.transform(object) : object
            try tracker.consume(visible) { added in
                if confirmed {
                    try writer.added(added)
                } else {
                    pending.append(added)
                    if pending.count >= Self.pendingLimit { try flush() }
                }
            }
            if !confirmed && tracker.hasMatchedBase { try flush() }
        }
    }

    func run(export: String, base: QueryAnchor, limit: Int?, anchorOutput: String?) throws {
        let reader = try ExportReader.open(export)
        let writer = try ChangeWriter.make(output)
        let tracker = ChangeTracker(anchor: base, limit: limit, keepsNewAnchor: anchorOutput != nil)
        let sink = Sink(executor: executor, tracker: tracker, writer: writer, baseExportDate: base.baseExportDate, log: log)
        let progress = ProgressLine(forced: diagnostics.progress, quiet: diagnostics.quiet)
        do {
            let summary = try reader.read(
                into: sink, warning: { warning in
                    progress.clear()
                    log.warning(warning)
                }, progress: { value in
                    progress.objects = sink.seenObjects
                    progress.update(value)
                }, types: executor.typesToRead)
            progress.clear()
            try tracker.verify()
            try sink.flush()
            let newAnchor = try tracker.finish(exportDate: sink.header.exportDate?.secondsSince1970) { uuid, type in
                try writer.deleted(uuid, type: type)
            }
            // The changes first, then the anchor: if writing the anchor fails, the consumer gets
            // the same batch again rather than missing it.
            try writer.finish(
                added: tracker.emittedAdded, deleted: tracker.emittedDeleted, complete: newAnchor.target == nil,
                position: newAnchor.position, anchorFile: anchorOutput)
            if let anchorOutput { try newAnchor.save(to: anchorOutput) }
            log.repeats(summary.warnings)
        } catch {
            progress.clear()
            writer.abandon()
            throw error
        }
    }
}

/// `changes` over the store: anchors are positions in its change sequence (numbers), and a
/// batch reads one snapshot of it.
struct StoreChangesRun {
    let executor: QueryExecutor
    let output: OutputOptions

    /// An anchor given as a number, or as a file holding one (what --anchor-output writes).
    static func parseAnchor(_ text: String?) throws -> Int {
        guard let text else { return 0 }
        if let value = Int(text), value >= 0 { return value }
        guard FileManager.default.fileExists(atPath: text) else {
            throw StoreError(.invalidAnchor, "--anchor: '\(text.prefix(80))' is neither a store anchor (a number) nor a file")
        }
        guard let data = FileManager.default.contents(atPath: text), data.count < 64,
            let value = Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)), value >= 0
        else {
            throw StoreError(.invalidAnchor, "\(text): not a store anchor (the store's anchors are numbers; file anchors belong to exports)")
        }
        return value
    }

    func run(store: HealthStore, anchor: String?, limit: Int?, anchorOutput: String?) throws {
        let since = try Self.parseAnchor(anchor)
        let writer = try ChangeWriter.make(output)
        do {
            let batch = try store.changes(
                since: since, query: executor, limit: limit, header: { try writer.begin(executor.header($0)) },
                added: { try writer.added($0) }, deleted: { try writer.deleted($0, type: $1) })
            try writer.finish(
                added: batch.added, deleted: batch.deleted, complete: batch.complete, position: 0, anchorFile: anchorOutput,
                storeAnchor: batch.newAnchor)
            if let anchorOutput {
                let file = try AtomicFile(destination: anchorOutput)
                file.buffer.appendRaw("\(batch.newAnchor)\n")
                try file.commit()
            }
        } catch {
            writer.abandon()
            throw error
        }
    }
}

extension ChangeWriter {
    /// The writer `--format` and `--output` ask for.
    static func make(_ output: OutputOptions) throws -> ChangeWriter {
        switch output.format {
        case .ndjson, .json:
            let format: ChangeWriter.Format = output.format == .json ? .json : .ndjson
            if output.output == "-" {
                let buffer = OutputBuffer(descriptor: 1)
                buffer.flushesEveryRecord = isatty(1) == 1
                return ChangeWriter(format: format, buffer: buffer, file: nil)
            }
            return ChangeWriter(format: format, buffer: nil, file: try AtomicFile(destination: output.output))
        case .csv:
            guard output.output != "-" else {
                throw QueryError(.errorInvalidArgument, "CSV changes are several tables: write them to a folder with --output DIR")
            }
            return try ChangeWriter(csvFolder: output.output)
        case .export:
            throw QueryError(.errorInvalidArgument, "--format export writes objects, not changes: use ndjson, json or csv")
        }
    }
}
