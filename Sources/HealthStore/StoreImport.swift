import Foundation
import GRDB
import HealthExport
import HealthModel
import HealthOutput
import HealthQuery

extension HealthStore {
    /// What an import did.
    public struct ImportSummary: Sendable, Equatable {
        /// Objects the export holds.
        public var objects: Int
        /// Objects new to the store.
        public var added: Int
        /// Objects of the store the export no longer holds, now tombstones.
        public var deleted: Int
        /// The store's anchor after the import (unchanged when nothing changed).
        public var anchor: Int
        /// Whether the import changed nothing (the same export again): nothing was written.
        public var unchanged: Bool { added == 0 && deleted == 0 }
    }

    /// Imports one export, all or nothing, in a single SQLite transaction: killed at any moment,
    /// the store stays at its previous anchor.
    ///
    /// Objects new to the store get the next positions of the change sequence in document
    /// order; objects of the store the export no longer holds become tombstones (HealthKit:
    /// `HKDeletedObject`), positioned after the additions, by uuid — the order `diff` reports.
    /// Importing the same export again changes nothing.
    ///
    /// - Parameters:
    ///   - force: import even an export older than the last import, or one that shares less
    ///     than 5 % of the store's objects (another person's, most likely): both would turn
    ///     most of the store into tombstones.
    /// - Throws: `StoreError.refusedImport`, the reader's `ExportError`, `StoreError.database`.
    public func importExport(
        _ reader: ExportReader, inputName: String, force: Bool = false,
        warning: @escaping (ExportWarning) -> Void = { _ in }, progress: ((ExportReader.Progress) -> Void)? = nil,
        objectsRead: ((Int) -> Void)? = nil
    ) throws -> (ImportSummary, ExportReader.Summary) {
        try Self.wrap(path) {
            var result: (ImportSummary, ExportReader.Summary)? = nil
            try pool.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    let importer = try Importer(db: db, storePath: path, inputName: inputName, force: force)
                    let readSummary = try reader.read(
                        into: importer, warning: warning,
                        progress: { value in
                            objectsRead?(importer.objectCount)
                            progress?(value)
                        })
                    let summary = try importer.finish()
                    result = (summary, readSummary)
                    // The same export again: leave the store exactly as it was.
                    return summary.unchanged && !importer.exportDateChanged ? .rollback : .commit
                }
            }
            return result!
        }
    }
}

/// The sink an import streams the export into, inside the import's transaction.
final class Importer: ExportSink {
    private let db: Database
    private let storePath: String
    private let inputName: String
    private let force: Bool
    private let encoder = NDJSONWriter(buffer: OutputBuffer(descriptor: -1))
    private let insert: Statement
    private let removeTombstone: Statement?
    private let previousAnchor: Int
    private var nextAnchor: Int
    private let importID: Int64
    private var base = IdentitySet()
    private var seen: [UInt64]
    private var seenCount = 0
    private var header = ExportHeader()
    private let lastExportDate: Int64?
    private(set) var exportDateChanged = true
    private(set) var objectCount = 0
    private var added = 0
    /// Per type, the longest duration and the largest inversion (end before start) seen, in
    /// seconds: they bound the date prefilter of queries (`StoreQuery`).
    private var extents: [String: (duration: Int64, inversion: Int64)] = [:]

    init(db: Database, storePath: String, inputName: String, force: Bool) throws {
        self.db = db
        self.storePath = storePath
        self.inputName = inputName
        self.force = force
        previousAnchor = try HealthStore.anchor(db)
        nextAnchor = previousAnchor + 1
        let cursor = try Row.fetchCursor(db, sql: "SELECT uuid, type FROM objects")
        while let row = try cursor.next() {
            let text: String = row[0]
            guard let uuid = ObjectUUID(uuidString: text) else {
                throw StoreError(.incompatible, "\(storePath): the store is damaged (invalid uuid '\(text.prefix(40))')")
            }
            base.insert(uuid, type: row[1])
        }
        base.finish()
        seen = Array(repeating: 0, count: base.count / 64 + 1)
        lastExportDate = try String.fetchOne(db, sql: "SELECT export_date FROM imports ORDER BY id DESC LIMIT 1")
            .flatMap(ExportTimestamp.parse)?.secondsSince1970
        try db.execute(
            sql: "INSERT INTO imports (imported_at, input, header, objects, added, deleted, anchor) VALUES (?, ?, '{}', 0, 0, 0, ?)",
            arguments: [ISO8601DateFormatter().string(from: Date()), inputName, previousAnchor])
        importID = db.lastInsertedRowID
        insert = try db.makeStatement(sql: """
            INSERT INTO objects (anchor, uuid, kind, type, start_date, end_date, value, unit, source, device, import_id, body)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let hasTombstones = try Int.fetchOne(db, sql: "SELECT count(*) FROM deleted_objects") ?? 0 > 0
        removeTombstone = hasTombstones ? try db.makeStatement(sql: "DELETE FROM deleted_objects WHERE uuid = ?") : nil
    }

    func exportDidBegin(_ header: ExportHeader) throws {
        self.header = header
        let date = header.exportDate?.secondsSince1970
        exportDateChanged = date != lastExportDate
        if !force, let date, let lastExportDate, date < lastExportDate {
            throw StoreError(
                .refusedImport,
                "\(storePath): the export is older than the last one imported; importing it would delete everything newer (use --force to import it anyway)")
        }
    }

    func consume(_ object: HealthObject) throws {
        objectCount += 1
        let uuid = object.uuid
        if let index = base.index(of: uuid) {
            if seen[index / 64] & (1 << UInt64(index % 64)) == 0 {
                seen[index / 64] |= 1 << UInt64(index % 64)
                seenCount += 1
            }
            return
        }
        let uuidText = uuid.uuidString
        try removeTombstone?.execute(arguments: [uuidText])
        var body = try encoder.encode(object)
        body.removeLast()  // the newline
        let type = object.objectType.identifier
        let start = object.startDate?.secondsSince1970
        let end = object.endDate?.secondsSince1970
        if let start, let end {
            let current = extents[type] ?? (0, 0)
            extents[type] = (max(current.duration, end - start), max(current.inversion, start - end))
        }
        var value: Double? = nil
        var unit: String? = nil
        switch object {
        case .quantitySample(let q):
            value = q.quantity.value.value
            unit = q.quantity.unit
        case .categorySample(let c):
            value = c.value.rawValue.map(Double.init)
        default:
            break
        }
        let source: String?
        if case .clinicalRecord(let c) = object { source = c.sourceName } else { source = object.sampleAttributes?.sourceRevision.source.name }
        insert.setUncheckedArguments([
            nextAnchor, uuidText, object.kindName, type, start, end, value, unit, source,
            object.sampleAttributes?.device?.name, importID, String(decoding: body, as: UTF8.self),
        ])
        try insert.execute()
        nextAnchor += 1
        added += 1
    }

    /// After the last object: checks the export belongs here, turns what disappeared into
    /// tombstones, and records the import.
    func finish() throws -> HealthStore.ImportSummary {
        if !force && base.count >= 50 && seenCount * 20 < base.count {
            throw StoreError(
                .refusedImport,
                "\(storePath): the export holds only \(seenCount) of the store's \(base.count) objects; it looks like another person's export (use another store, or --force)")
        }
        var deleted = 0
        if seenCount < base.count {
            let move = try db.makeStatement(sql: """
                INSERT INTO deleted_objects (anchor, uuid, kind, type, start_date, end_date, added_anchor, import_id, body)
                SELECT ?, uuid, kind, type, start_date, end_date, anchor, ?, body FROM objects WHERE uuid = ?
                """)
            let remove = try db.makeStatement(sql: "DELETE FROM objects WHERE uuid = ?")
            for index in 0..<base.count where seen[index / 64] & (1 << UInt64(index % 64)) == 0 {
                let uuid = base.uuids[index].uuidString
                try move.execute(arguments: [nextAnchor, importID, uuid])
                try remove.execute(arguments: [uuid])
                nextAnchor += 1
                deleted += 1
            }
        }
        for (type, extent) in extents {
            try db.execute(
                sql: """
                    INSERT INTO type_extents (type, max_duration, max_inversion) VALUES (?, ?, ?)
                    ON CONFLICT (type) DO UPDATE SET max_duration = max(max_duration, excluded.max_duration),
                        max_inversion = max(max_inversion, excluded.max_inversion)
                    """, arguments: [type, extent.duration, extent.inversion])
        }
        let anchor = nextAnchor - 1
        try db.execute(sql: "UPDATE store_info SET value = ? WHERE key = 'anchor'", arguments: [anchor])
        let headerBuffer = OutputBuffer(descriptor: -1)
        let headerWriter = NDJSONWriter(buffer: headerBuffer)
        try headerWriter.begin(header)
        var headerJSON = headerBuffer.takeBytes()
        if headerJSON.last == 0x0A { headerJSON.removeLast() }
        try db.execute(
            sql: "UPDATE imports SET export_date = ?, header = ?, objects = ?, added = ?, deleted = ?, anchor = ? WHERE id = ?",
            arguments: [
                header.exportDate?.iso8601, String(decoding: headerJSON, as: UTF8.self), objectCount, added, deleted, anchor,
                importID,
            ])
        return HealthStore.ImportSummary(objects: objectCount, added: added, deleted: deleted, anchor: anchor)
    }
}
