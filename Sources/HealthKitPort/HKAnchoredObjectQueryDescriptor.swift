import Foundation
import HealthEngine
import HealthModel
import HealthQuery

/// An anchored object query (HealthKit: `HKAnchoredObjectQueryDescriptor`): the samples added
/// and the objects deleted since an anchor, over a store made by `healthport import` or over an
/// export.
///
/// It runs `ChangesRun`, the run behind `healthport changes`, over the store
/// (`changes --store`) or an export (`changes EXPORT --anchor FILE`). Either way the changes,
/// their order and the new anchor are the command line's. A `limit` counts added and deleted
/// objects together; batch until both lists come back empty:
/// ```swift
/// var anchor: HKQueryAnchor? = nil
/// while true {
///     let r = try await HKAnchoredObjectQueryDescriptor(
///         predicates: [.quantitySample(type: HKQuantityType(.stepCount))], anchor: anchor, limit: 100
///     ).result(for: store)
///     anchor = r.newAnchor
///     if r.addedSamples.isEmpty && r.deletedObjects.isEmpty { break }
/// }
/// ```
/// (Apple's article ends its loop with `while (added != []) && (deleted != [])`, which stops at
/// the first batch without deletions.)
///
/// **Over an export.** An export is one snapshot: with no anchor every matching sample is
/// added, in the export's order; the new anchor stands for what was seen, so the same query
/// again returns nothing, and the same query over the person's *next* export (another
/// `HKHealthStore`) returns what was added and deleted since, as `healthport changes NEW
/// --anchor OLD` does. The anchor holds the export's identity set (about 20 bytes an object)
/// and belongs to the query it was made for: types, predicate and policy (an anchor made
/// before the policy changed is `errorInvalidArgument`; start again without one). Each batch
/// reads the export again, so batching an export costs a read per batch, where a store answers
/// each batch from its index.
///
/// Entries of `predicates` must share one predicate (or none).
public struct HKAnchoredObjectQueryDescriptor<Sample: HKSample>: Sendable {
    /// The types (and the one shared predicate) to follow; a change matches when it matches any entry.
    public var predicates: [HKSamplePredicate<Sample>]
    /// What was seen; `nil` reads every matching sample.
    public var anchor: HKQueryAnchor?
    /// At most this many changes per result (added and deleted together); `nil` is all.
    public var limit: Int?

    /// A descriptor reading the changes after `anchor` (`nil`: every matching sample), at most
    /// `limit` per result (`nil` or 0: all).
    public init(predicates: [HKSamplePredicate<Sample>], anchor: HKQueryAnchor?, limit: Int? = nil) {
        self.predicates = predicates
        self.anchor = anchor
        self.limit = limit
    }

    /// One batch of changes (HealthKit: `HKAnchoredObjectQueryDescriptor.Result`).
    public struct Result: Sendable {
        /// The samples added since the anchor, in change order, as the policy lets them through.
        public let addedSamples: [Sample]
        /// The objects deleted since the anchor (an import that no longer holds them).
        public let deletedObjects: [HKDeletedObject]
        /// Pass it to the next query; it covers the last change returned.
        public let newAnchor: HKQueryAnchor
    }

    /// The changes after the anchor, at most `limit` of them.
    ///
    /// - Throws: `HKError`: `errorInvalidArgument` for an anchor of the other kind of input (a
    ///   store's over an export, or the reverse), a store anchor ahead of the store (from
    ///   another store), an export anchor made for another query or an unrelated export, or
    ///   entries with different predicates; `errorAuthorizationNotDetermined` for a type the
    ///   policy never decided.
    public func result(for healthStore: HKHealthStore) async throws -> Result {
        let run = try changesRun(for: healthStore)
        return Self.result(try await runEngine { cancellation in try run.changes(cancellation: cancellation) })
    }

    /// A long-running query: an `AsyncSequence` whose first element holds the changes now in
    /// the store after the anchor, and whose later elements hold the changes of each import
    /// another process (`healthport import`, `import --watch`) commits, as they land — the
    /// mechanism of `healthport changes --store --follow`. A policy change made meanwhile
    /// applies from the next element. Stop it by cancelling the task that iterates it.
    ///
    /// Over an export the first element holds the export's changes after the anchor; an
    /// export never changes, so no element follows, and the sequence waits, as a long-running
    /// query with nothing new does, until its task is cancelled. (`limit` applies to each
    /// element; with a limit, the first element over an export is its first batch.)
    public func results(for healthStore: HKHealthStore) -> Results {
        Results(descriptor: self, store: healthStore)
    }

    /// The elements of `results(for:)`.
    public struct Results: AsyncSequence, Sendable {
        /// One batch of changes.
        public typealias Element = Result
        let descriptor: HKAnchoredObjectQueryDescriptor
        let store: HKHealthStore

        /// Starts following the store: each iterator follows it on its own engine thread, which
        /// stops when the iteration ends or its task is cancelled.
        public func makeAsyncIterator() -> AsyncIterator {
            let descriptor = self.descriptor, store = self.store
            let stream = AsyncThrowingStream<Result, any Error> { continuation in
                let cancellation = RunCancellation()
                continuation.onTermination = { _ in cancellation.cancel() }
                Thread.detachNewThread {
                    do {
                        var run = try descriptor.changesRun(for: store)
                        if case .export = store.input {
                            // One snapshot: its changes, then nothing until the task ends.
                            continuation.yield(HKAnchoredObjectQueryDescriptor.result(try run.changes(cancellation: cancellation)))
                            return
                        }
                        if let path = store.policyPath, FileManager.default.fileExists(atPath: path) { run.policyFile = path }
                        try run.follow(cancellation: cancellation) { changes in continuation.yield(HKAnchoredObjectQueryDescriptor.result(changes)) }
                    } catch let error as RunError where error.category == .cancelled {
                        continuation.finish()
                    } catch let error as RunError {
                        continuation.finish(throwing: HKError(error))
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
            }
            return AsyncIterator(base: stream.makeAsyncIterator())
        }

        /// Yields batches as they are read from the store.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<Result, any Error>.AsyncIterator

            /// The next batch; waits for an import when the store has nothing new.
            public mutating func next() async throws -> Result? {
                try await base.next()
            }
        }
    }

    /// The engine's run for this descriptor over the store's input (an export or the store).
    func changesRun(for healthStore: HKHealthStore) throws -> ChangesRun {
        let anchor: ChangesAnchor?
        switch (healthStore.input, self.anchor?.position) {
        case (_, nil): anchor = nil
        case (.store, .store?), (.export, .export?): anchor = self.anchor?.position
        case (.store, .export?):
            throw HKError(
                .errorInvalidArgument, "this anchor was made over an export; a store's anchors are its own tokens (start without an anchor)")
        case (.export, .store?):
            throw HKError(
                .errorInvalidArgument, "this anchor is a store's; over an export, use an anchor an export query returned (or none)")
        }
        return ChangesRun(input: healthStore.input, query: try query(for: healthStore), anchor: anchor, limit: try batchLimit())
    }

    /// `limit` as the runs take it: `nil` for all.
    func batchLimit() throws -> Int? {
        if let limit, limit < 0 { throw HKError(.errorInvalidArgument, "limit must not be negative") }
        return limit == 0 ? nil : limit
    }

    /// The descriptor's types and shared predicate, with the store's current policy.
    func query(for healthStore: HKHealthStore) throws -> ObjectQuery {
        let distinct = Set(predicates.map { $0.nsPredicate.map(ObjectIdentifier.init) })
        guard distinct.count <= 1 else {
            throw HKError(.errorInvalidArgument, "the entries of an anchored query must share one predicate")
        }
        var query = ObjectQuery(types: Set(predicates.map(\.type.identifier)))
        try HKPortPredicate.apply(predicates.first?.nsPredicate, to: &query)
        return try healthStore.authorized(query)
    }

    static func result(_ changes: ChangesRun.Changes) -> Result {
        Result(
            addedSamples: changes.added.compactMap { HKObject.make($0) as? Sample },
            deletedObjects: changes.deleted.compactMap { UUID(uuidString: $0.uuid.uuidString).map(HKDeletedObject.init) },
            newAnchor: HKQueryAnchor(changes.newAnchor))
    }
}
