import Foundation
import HealthExport
import HealthModel
import HealthStore

/// Imports every export that arrives in a folder, once (`healthport import --watch`): first
/// those already there that the store has not met, oldest export date first, then each new one
/// when it is complete. Runs until cancelled.
///
/// An export is imported only once its bytes are whole and have settled (`ExportArrival`); one
/// that stops changing without becoming whole, or that the store refuses (damaged, another
/// person's, older than the store), is reported once, recorded as refused in the store, and not
/// tried again until `force`. The store remembers exports by digest (`StoreWatchLedger`), so a
/// restart, a rename or a copy imports nothing twice.
public struct ImportWatchRun: Sendable {
    public var folder: String
    public var store: String
    /// How long an export must stay unchanged before it is judged: complete, or cut off.
    public var settle: TimeInterval = 5
    /// Try again exports the store refused, and import older ones (as `import --force`).
    public var force = false

    public init(folder: String, store: String) {
        self.folder = folder
        self.store = store
    }

    /// What became of one export.
    public enum Outcome: Sendable {
        case imported(HealthStore.ImportSummary)
        /// Refused by the store, damaged, or cut off; the error says why.
        case refused(RunError)
    }

    /// Watches until `cancellation` (then throws `RunError` `.cancelled`), calling `outcome`
    /// with each export's file name and what became of it.
    public func run(
        reporter: RunReporter = .silent, cancellation: RunCancellation? = nil,
        outcome: (_ name: String, Outcome) -> Void
    ) throws(RunError) {
        try RunError.wrapping { try watch(reporter: reporter, cancellation: cancellation, outcome: outcome) }
    }

    /// What the watcher knows of one entry of the folder.
    private struct Tracked {
        var signature: [Int64]
        var since: Date
        /// The signature it had when it was dealt with; changed since, it is looked at again.
        var handled: [Int64]?
    }

    private func watch(reporter: RunReporter, cancellation: RunCancellation?, outcome: (String, Outcome) -> Void) throws {
        let ledger = try HealthStore.openForWriting(at: store)
        var tracked: [String: Tracked] = [:]
        let interval = min(1, max(0.1, settle / 2))
        while true {
            if cancellation?.isCancelled == true { throw CancellationError() }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw RunError(.inputNotFound, "the watched folder is gone", location: folder)
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            let now = Date()
            var settled: [ExportArrival] = []
            var present = Set<String>()
            for name in names {
                guard let arrival = ExportArrival(folder: folder, name: name) else { continue }
                present.insert(arrival.path)
                let signature = arrival.signature
                guard var entry = tracked[arrival.path], entry.signature == signature else {
                    tracked[arrival.path] = Tracked(signature: signature, since: now, handled: nil)
                    continue
                }
                if entry.handled == signature || now.timeIntervalSince(entry.since) < settle { continue }
                entry.handled = signature
                tracked[arrival.path] = entry
                settled.append(arrival)
            }
            tracked = tracked.filter { present.contains($0.key) }

            // Oldest export first, so the store's history runs forward.
            let ordered = settled.map { ($0, $0.isComplete ? Self.exportDate(of: $0.path) : nil) }
                .sorted { ($0.1 ?? Int64.max, $0.0.path) < ($1.1 ?? Int64.max, $1.0.path) }
            for (arrival, _) in ordered {
                if cancellation?.isCancelled == true { throw CancellationError() }
                let name = URL(fileURLWithPath: arrival.path).lastPathComponent
                let digest = try arrival.digest
                if let known = try ledger.watchedExport(digest: digest), known.imported || !force { continue }
                guard arrival.isComplete else {
                    let error = RunError(
                        .malformedInput, "stopped changing for \(String(format: "%g", settle)) s without becoming a whole export (a transfer cut off?)",
                        location: name)
                    try ledger.recordWatchedExport(digest: digest, .init(name: name, imported: false, message: error.message))
                    outcome(name, .refused(error))
                    continue
                }
                var run = ImportRun(export: arrival.path, store: store)
                run.force = force
                let result: Result<ImportRun.Summary, RunError>
                do {
                    result = .success(try run.run(reporter: reporter, cancellation: cancellation))
                } catch {
                    result = .failure(error)
                }
                switch result {
                case .success(let summary):
                    try ledger.recordWatchedExport(digest: digest, .init(name: name, imported: true))
                    outcome(name, .imported(summary.result))
                case .failure(let error) where [.cancelled, .ioFailure, .internalError, .cannotCreateOutput].contains(error.category):
                    // Cancelled, or the store itself failed: not the export's fault, nothing to
                    // record, and the watcher cannot go on.
                    throw error
                case .failure(let error):
                    try ledger.recordWatchedExport(digest: digest, .init(name: name, imported: false, message: error.message))
                    outcome(name, .refused(error))
                }
            }
            let wake = Date().addingTimeInterval(interval)
            while Date() < wake {
                if cancellation?.isCancelled == true { throw CancellationError() }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }

    /// The export's date from its header (`nil` when it cannot be read): the order in which
    /// exports already waiting are imported.
    static func exportDate(of path: String) -> Int64? {
        final class HeaderOnly: ObjectSink {
            struct Enough: Error {}
            var date: Int64?
            func exportDidBegin(_ header: ExportHeader) throws {
                date = header.exportDate?.secondsSince1970
                throw Enough()
            }
            func consume(_ object: HealthObject) throws { throw Enough() }
        }
        let sink = HeaderOnly()
        guard let reader = try? ExportReader.open(path, jobs: 1) else { return nil }
        _ = try? reader.read(into: sink)
        return sink.date
    }
}
