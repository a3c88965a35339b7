import Foundation
import GRDB
import HealthModel
import HealthQuery

extension HealthStore {
    /// Streams the objects a query admits, in the order they reached the store (the change
    /// sequence), to a sink: the header of the latest import first, then each object.
    ///
    /// SQL narrows the rows by type, uuid and date (see `StorePrefilter`); every row that
    /// remains is decoded and passes the query's gate (`QueryGate`), which applies the whole
    /// query and the policy in Swift as it does for an export. SQL only ever removes rows the
    /// query would reject, so a store answers exactly as the export does.
    ///
    /// - Parameter isCancelled: asked every 1,024 rows; true stops the read (`CancellationError`).
    /// - Returns: how many objects passed the gate.
    @discardableResult
    public func read(
        query executor: QueryExecutor, into downstream: any ObjectSink, isCancelled: (@Sendable () -> Bool)? = nil
    ) throws -> Int {
        let sink = QueryGate(executor, into: downstream, isCancelled: isCancelled)
        try Self.wrap(path) {
            try database.read { db in
                try sink.exportDidBegin(try Self.consumerHeader(db, path: path, gate: sink))
                let prefilter = try StorePrefilter(executor: executor, db: db)
                let decoder = StoredObjectDecoder(db: db, path: path)
                let cursor = try Row.fetchCursor(
                    db, sql: "SELECT \(StoredObjectDecoder.columns) FROM objects" + prefilter.whereClause + " ORDER BY anchor",
                    arguments: prefilter.arguments)
                while let row = try cursor.next() {
                    try sink.consume(try decoder.decode(row))
                }
            }
        }
        return sink.admitted
    }

    /// One batch of an anchored object query over the store.
    public struct ChangeBatch: Sendable, Equatable {
        public var added: Int
        public var deleted: Int
        /// The anchor to pass next time: the last change the query saw, or the anchor passed
        /// when it saw none.
        public var newAnchor: StoreAnchor
        /// Whether the batch returned every change the query sees now (false when `limit`
        /// stopped it before one it sees).
        public var complete: Bool
    }

    /// The changes after `anchor` that the query admits, in change order, at most `limit` of
    /// them (HealthKit: `HKAnchoredObjectQuery` with a limit). Deleted objects are judged by the
    /// object as it was, so a filtered query reports the deletions a filtered `diff` reports.
    ///
    /// The header, the added objects and the deletions all pass the query's gate first, and
    /// nothing the gate hides shows in the answer: the new anchor is the position of the last
    /// change returned (not the store's), and `complete` is false only when a change the query
    /// sees is left for the next batch. So an import of hidden types alone, or of nothing, gives
    /// the same answer as before it (`StoreAnchor`).
    ///
    /// - Throws: `StoreError.invalidAnchor` for an anchor ahead of the store.
    public func changes(
        since anchor: StoreAnchor, query executor: QueryExecutor, limit: Int?,
        header: (ExportHeader) throws -> Void = { _ in },
        added: (HealthObject) throws -> Void, deleted: (ObjectUUID, String) throws -> Void
    ) throws -> ChangeBatch {
        let gate = QueryGate(executor, into: NoSink())
        return try Self.wrap(path) {
            try database.read { db in
                // A valid token of this store is never ahead of it, unless the store was
                // replaced by an older copy of itself: the same message, naming no position.
                guard anchor.position <= (try Self.anchor(db, path: path)) else {
                    throw StoreError(
                        .invalidAnchor, "\(path): the anchor is ahead of this store (was the store restored from an older copy?)")
                }
                let latest = try Self.consumerHeader(db, path: path, gate: gate)
                try gate.exportDidBegin(latest)
                try header(gate.header(latest))
                var batch = ChangeBatch(added: 0, deleted: 0, newAnchor: anchor, complete: true)
                try Self.changeRows(db, path: path, after: anchor.position, executor: executor) { position, object, isDeletion in
                    // Deletions are judged by the object as it was, through the same gate.
                    guard let object = try gate.visible(object) else { return true }
                    if let limit, batch.added + batch.deleted >= limit {
                        batch.complete = false
                        return false
                    }
                    if isDeletion {
                        try deleted(object.uuid, object.objectType.identifier)
                        batch.deleted += 1
                    } else {
                        try added(object)
                        batch.added += 1
                    }
                    batch.newAnchor = anchorCipher.anchor(position: position)
                    return true
                }
                return batch
            }
        }
    }

    /// Whether a change after `position`, up to the store's latest, is one the query sees;
    /// and that latest position. For the engine's watchers, which remember the store's
    /// position privately and tell a consumer only that something it sees has changed.
    package func hasVisibleChange(after position: Int, query executor: QueryExecutor) throws -> (visible: Bool, position: Int) {
        let gate = QueryGate(executor, into: NoSink())
        return try Self.wrap(path) {
            try database.read { db in
                let current = try Self.anchor(db, path: path)
                var visible = false
                try Self.changeRows(db, path: path, after: min(position, current), executor: executor) { _, object, _ in
                    visible = try gate.visible(object) != nil
                    return !visible
                }
                return (visible, current)
            }
        }
    }

    /// The added objects and tombstones after `position` of the types the query may read, in
    /// change order, decoded, to `body` (which returns false to stop).
    /// The header to pass through a gate (which keeps the characteristics its policy grants):
    /// the latest import's.
    ///
    /// Under a policy, the export's date, version and locale are those of the latest import
    /// that brought a change the consumer sees (none when none did): the latest import's own
    /// would tell a consumer when the person last imported, though it brought only types
    /// hidden from them (the third audit's item 13). The characteristics stay the latest's
    /// (the gate shows those the policy grants).
    static func consumerHeader(_ db: Database, path: String, gate: QueryGate) throws -> ExportHeader {
        var header = try latestHeader(db, path: path)
        guard !gate.executor.disclosure.storeHistory else { return header }
        let imports = try Row.fetchAll(db, sql: "SELECT id, anchor FROM imports ORDER BY id DESC")
        var shownImport: Int64? = nil
        for (index, row) in imports.enumerated() {
            let through: Int = try row.decode(forColumn: "anchor")
            let after: Int = index + 1 < imports.count ? try imports[index + 1].decode(forColumn: "anchor") : 0
            guard through > after else { continue }
            var visible = false
            try changeRows(db, path: path, after: after, through: through, executor: gate.executor) { _, object, _ in
                visible = try gate.visible(object) != nil
                return !visible
            }
            if visible {
                shownImport = try row.decode(forColumn: "id")
                break
            }
        }
        let shown = try shownImport.map { try importHeader(db, path: path, id: $0) }
        header.exportDate = shown?.exportDate
        header.exportVersion = shown?.exportVersion
        header.locale = shown?.locale
        return header
    }

    private static func changeRows(
        _ db: Database, path: String, after position: Int, through last: Int? = nil, executor: QueryExecutor,
        _ body: (_ position: Int, _ object: HealthObject, _ isDeletion: Bool) throws -> Bool
    ) throws {
        var conditions = ["anchor > ?"]
        var arguments: [any DatabaseValueConvertible] = [position]
        if let last {
            conditions.append("anchor <= ?")
            arguments.append(last)
        }
        if let types = executor.typesToRead {
            conditions.append(StorePrefilter.typeCondition(types.count))
            arguments.append(contentsOf: (types.isEmpty ? [""] : types.sorted()) as [any DatabaseValueConvertible])
        }
        let filter = " WHERE " + conditions.joined(separator: " AND ")
        let columns = StoredObjectDecoder.columns
        let sql = """
            SELECT \(columns), 0 AS deleted FROM objects\(filter)
            UNION ALL
            SELECT \(columns), 1 AS deleted FROM deleted_objects\(filter)
            ORDER BY anchor
            """
        let decoder = StoredObjectDecoder(db: db, path: path)
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments + arguments))
        while let row = try cursor.next() {
            guard try body(try row.decode(atIndex: 0), try decoder.decode(row), try row.decode(Int.self, forColumn: "deleted") == 1) else { return }
        }
    }
}

/// The gate's downstream when objects are taken one at a time (`QueryGate.visible`).
private final class NoSink: ObjectSink {
    func exportDidBegin(_ header: ExportHeader) throws {}
    func consume(_ object: HealthObject) throws {}
}

/// The SQL part of a query over the store: conditions on indexed columns that every object the
/// query admits satisfies. Never exact, always a superset; `QueryExecutor.admits` decides.
struct StorePrefilter {
    var conditions: [String] = []
    var arguments = StatementArguments()

    /// More than any UTC offset a zone has (±14 hours): a day.
    static let widestOffset: Double = 86_400

    var whereClause: String { conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ") }

    /// `type_id IN (…)` for `count` type identifiers (at least one placeholder): the ids come
    /// from `sample_types`, a few dozen rows, and the `(type_id, start_date)` index serves
    /// each as before it served the identifier.
    static func typeCondition(_ count: Int) -> String {
        "type_id IN (SELECT id FROM sample_types WHERE identifier IN (\(Array(repeating: "?", count: max(count, 1)).joined(separator: ","))))"
    }

    init(executor: QueryExecutor, db: Database) throws {
        let query = executor.query
        let types = executor.typesToRead
        var typeArguments: [any DatabaseValueConvertible] = []
        if let types {
            typeArguments = types.isEmpty ? [""] : types.sorted()
        }
        if !query.sources.isEmpty {
            let keys = Set(query.sources.map(SourceName.normalized)).sorted()
            conditions.append("source_id IN (SELECT id FROM sources WHERE key IN (\(Array(repeating: "?", count: keys.count).joined(separator: ","))))")
            for key in keys { _ = arguments.append(contentsOf: [key]) }
        }
        if !query.uuids.isEmpty {
            conditions.append("uuid IN (\(Array(repeating: "?", count: query.uuids.count).joined(separator: ",")))")
            for uuid in query.uuids.sorted() { _ = arguments.append(contentsOf: [Data(StoredRow.bytes(uuid))]) }
        }
        // Dates: bounds on start_date, widened by the longest duration (and the largest
        // inversion, end before start) of the selected types, so the (type, start_date) index
        // serves the window whatever HKQueryOptions say. Objects without dates pass.
        var lower: Double? = nil
        var upper: Double? = nil
        if let window = query.dateWindow {
            lower = window.start
            upper = window.end
            // A bound typed without an offset (`--start 2024-06-01`) is read in each sample's
            // own time, within a day of UTC in every zone: a day wider, it bounds the instant.
            // Without it the one-month query of `Benchmarks/store.sh` read and decoded every
            // heart rate of the store (3.5 s); with it, the month's (`healthport-store(5)`).
            if let local = window.localStart { lower = min(lower ?? .infinity, local - Self.widestOffset) }
            if let local = window.localEnd { upper = max(upper ?? -.infinity, local + Self.widestOffset) }
        }
        if let predicate = query.predicate {
            let (l, u) = Self.dateBounds(predicate)
            if let l { lower = max(lower ?? l, l) }
            if let u { upper = min(upper ?? u, u) }
        }
        if lower != nil || upper != nil {
            var extentSQL = "SELECT coalesce(max(max_duration), 0), coalesce(max(max_inversion), 0) FROM type_extents"
            var extentArguments = StatementArguments()
            if let types {
                extentSQL += " WHERE type IN (\(Array(repeating: "?", count: max(types.count, 1)).joined(separator: ",")))"
                if types.isEmpty { _ = extentArguments.append(contentsOf: [""]) }
                for type in types.sorted() { _ = extentArguments.append(contentsOf: [type]) }
            }
            let row = try Row.fetchOne(db, sql: extentSQL, arguments: extentArguments)
            let duration = try row?.decode(Int64?.self, atIndex: 0) ?? 0
            let inversion = try row?.decode(Int64?.self, atIndex: 1) ?? 0
            var range: [String] = []
            var rangeArguments = StatementArguments()
            if let lower {
                range.append("start_date >= ?")
                _ = rangeArguments.append(contentsOf: [(lower - Double(duration)).rounded(.down)])
            }
            if let upper {
                range.append("start_date <= ?")
                _ = rangeArguments.append(contentsOf: [(upper + Double(inversion)).rounded(.up)])
            }
            let bounds = range.joined(separator: " AND ")
            if let types {
                // Each side of the OR with the types, so that both use the (type_id, start_date)
                // index: `type_id IN (…) AND (start_date IS NULL OR range)` used it for the types
                // alone, and read every index entry of the type (9 ms a query on the 4-year store).
                let type = Self.typeCondition(types.count)
                conditions.append("((\(type) AND start_date IS NULL) OR (\(type) AND \(bounds)))")
                _ = arguments.append(contentsOf: StatementArguments(typeArguments + typeArguments) + rangeArguments)
            } else {
                conditions.append("(start_date IS NULL OR (" + bounds + "))")
                _ = arguments.append(contentsOf: rangeArguments)
            }
        } else if let types {
            conditions.append(Self.typeCondition(types.count))
            _ = arguments.append(contentsOf: StatementArguments(typeArguments))
        }
    }

    /// Bounds on an admitted object's dates implied by a predicate's top-level conjuncts of the
    /// form `startDate|endDate <op> date` (the only part translated to SQL; the rest, and these
    /// too, are evaluated in Swift). `lower` bounds the end date from below, `upper` the start
    /// date from above, as the date window does.
    static func dateBounds(_ predicate: QueryPredicate) -> (lower: Double?, upper: Double?) {
        var lower: Double? = nil
        var upper: Double? = nil
        let conjuncts: [QueryPredicate]
        if case .and(let parts) = predicate { conjuncts = parts } else { conjuncts = [predicate] }
        for part in conjuncts {
            guard case .comparison(let c) = part, c.quantifier == nil,
                case .keyPath(let path, _, _) = c.left, case .literal(.date(let date), _) = c.right
            else { continue }
            switch (path, c.op) {
            // endDate ≥ start-like bounds: the object ends at or after `date`.
            case (.endDate, .greater), (.endDate, .greaterOrEqual), (.endDate, .equal),
                (.startDate, .greater), (.startDate, .greaterOrEqual), (.startDate, .equal):
                lower = max(lower ?? date, date)
            default: break
            }
            switch (path, c.op) {
            // startDate ≤ end-like bounds: the object starts at or before `date`.
            case (.startDate, .less), (.startDate, .lessOrEqual), (.startDate, .equal),
                (.endDate, .less), (.endDate, .lessOrEqual), (.endDate, .equal):
                upper = min(upper ?? date, date)
            default: break
            }
        }
        return (lower, upper)
    }
}
