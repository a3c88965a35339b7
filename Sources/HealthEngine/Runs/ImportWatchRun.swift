import Foundation
import HealthExport
import HealthModel
import HealthQuery
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
///
/// No single entry can stop the watcher: one named as an export that cannot be imported (a
/// FIFO, a device or a broken link, a name that is not UTF-8, a folder holding no unzipped
/// export) is reported once as a warning (`watch.skipped`, located at its name) and left
/// alone until it changes (`WatchedFolder`, `ExportArrival`); files are opened non-blocking
/// and read only when `fstat(2)` says they are regular. Only the folder going away, the store
/// failing, or cancellation end the watch.
public struct ImportWatchRun: Sendable {
    public var folder: String
    public var store: String
    /// How long an export must stay unchanged before it is judged: complete, or cut off.
    public var settle: TimeInterval = 5
    /// Try again exports the store refused, and import older ones (as `import --force`).
    public var force = false
    /// How each export is read (the parser, a zip's expansion): the face's options.
    public var reading = ReadOptions()

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

    /// A settled export, ready to be imported in date order.
    private struct Settled {
        var arrival: ExportArrival
        var document: String
        var isComplete: Bool
        var date: Int64?
    }

    private func watch(reporter: RunReporter, cancellation: RunCancellation?, outcome: (String, Outcome) -> Void) throws {
        let ledger = try HealthStore.openForWriting(at: store)
        reporter.storeOpened(ledger)
        var tracked: [String: Tracked] = [:]
        /// Entries that cannot be imported, by name, with the identity they were reported for.
        var reported: [String: [Int64]] = [:]
        let interval = min(1, max(0.1, settle / 2))
        /// Says once why an entry is left alone; the watcher goes on with the others.
        func skip(_ name: String, _ reason: String) {
            reporter.warning(ExportWarning(key: "watch.skipped", message: reason, location: SourceLocation(file: name)))
        }
        while true {
            if cancellation?.isCancelled == true { throw CancellationError() }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw RunError(.inputNotFound, "the watched folder is gone", location: folder)
            }
            let now = Date()
            var settled: [ExportArrival] = []
            var present = Set<String>()
            for entry in try WatchedFolder.entries(of: folder) {
                let arrival: ExportArrival
                switch entry {
                case .unusable(let name, let identity, let reason):
                    present.insert(name)
                    if reported[name] != identity {
                        reported[name] = identity
                        skip(name, reason)
                    }
                    continue
                case .arrival(let found):
                    arrival = found
                }
                present.insert(arrival.name)
                reported[arrival.name] = nil
                let signature = arrival.signature
                guard var entry = tracked[arrival.name], entry.signature == signature else {
                    tracked[arrival.name] = Tracked(signature: signature, since: now, handled: nil)
                    continue
                }
                if entry.handled == signature || now.timeIntervalSince(entry.since) < settle { continue }
                entry.handled = signature
                tracked[arrival.name] = entry
                settled.append(arrival)
            }
            tracked = tracked.filter { present.contains($0.key) }
            reported = reported.filter { present.contains($0.key) }

            // What each settled entry holds; those that hold no export are said once and left.
            var ready: [Settled] = []
            for arrival in settled {
                do {
                    let document = try arrival.document()
                    let isComplete = arrival.isComplete(document: document)
                    let date = isComplete ? Self.exportDate(of: arrival.path, reading: reading) : nil
                    ready.append(Settled(arrival: arrival, document: document, isComplete: isComplete, date: date))
                } catch let unusable as ExportArrival.Unusable {
                    skip(arrival.name, unusable.reason)
                }
            }
            // Oldest export first, so the store's history runs forward.
            ready.sort { ($0.date ?? Int64.max, $0.arrival.name) < ($1.date ?? Int64.max, $1.arrival.name) }
            for settled in ready {
                if cancellation?.isCancelled == true { throw CancellationError() }
                let (arrival, name) = (settled.arrival, settled.arrival.name)
                let digest: String
                do {
                    digest = try ExportArrival.digest(of: settled.document)
                } catch let unusable as ExportArrival.Unusable {
                    skip(name, unusable.reason)
                    continue
                }
                if let known = try ledger.watchedExport(digest: digest), known.imported || !force { continue }
                guard settled.isComplete else {
                    let error = RunError(
                        .malformedInput, "stopped changing for \(String(format: "%g", settle)) s without becoming a whole export (a transfer cut off?)",
                        location: name)
                    try ledger.recordWatchedExport(digest: digest, .init(name: name, imported: false, message: error.message))
                    outcome(name, .refused(error))
                    continue
                }
                var run = ImportRun(export: arrival.path, store: store)
                run.force = force
                run.reading = reading
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
                case .failure(let error) where Self.endsTheWatch(error, export: arrival.path):
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

    /// Whether an import's failure ends the watcher rather than the one export: a cancellation,
    /// or the store failing (an I/O error located nowhere, or in the store). A read error in
    /// the export itself, and even a bug met on one export, refuse that export and the watcher
    /// goes on, so that a service manager does not restart it into the same failure for ever.
    static func endsTheWatch(_ error: RunError, export: String) -> Bool {
        switch error.category {
        case .cancelled, .cannotCreateOutput: return true
        case .ioFailure: return !(error.location?.hasPrefix(export) ?? false)
        default: return false
        }
    }

    /// The export's date from its header (`nil` when it cannot be read): the order in which
    /// exports already waiting are imported.
    static func exportDate(of path: String, reading: ReadOptions) -> Int64? {
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
        var options = reading
        options.jobs = 1
        options.writerWait = 0
        guard let reader = try? ExportReader.open(path, reading: options) else { return nil }
        // The owner's watcher: its export date, read as the owner reads.
        _ = try? reader.read(.everything, into: sink)
        return sink.date
    }
}
