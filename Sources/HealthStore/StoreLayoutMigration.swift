import GRDB
import HealthJSON
import HealthModel

/// Schema `v5`: the rows of the layout of healthport 0.1.0 to `v4` (uuids and types as text, every
/// object as JSON) rewritten in the compact one (`StoredRow`), inside the migration's transaction:
/// killed halfway, the store is the older one still.
///
/// Each row is decoded as the older healthport read it and encoded as an import now encodes it,
/// so a migrated store holds the rows a new import of the same objects would have written, at
/// the same anchors; tombstones keep the position they were added at, every row its import.
enum StoreLayoutMigration {
    static func migrate(_ db: Database, path: String) throws {
        try db.execute(sql: """
            DROP VIEW IF EXISTS quantity_samples;
            DROP VIEW IF EXISTS category_samples;
            DROP VIEW IF EXISTS workouts;
            DROP VIEW IF EXISTS activity_summaries;
            DROP VIEW IF EXISTS metadata;
            DROP INDEX IF EXISTS objects_by_type_and_start;
            DROP INDEX IF EXISTS objects_by_source;
            DROP INDEX IF EXISTS deleted_objects_by_type;
            ALTER TABLE objects RENAME TO legacy_objects;
            ALTER TABLE deleted_objects RENAME TO legacy_deleted_objects;

            CREATE TABLE kinds (code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE TABLE sample_types (id INTEGER PRIMARY KEY, identifier TEXT NOT NULL UNIQUE);
            CREATE TABLE sources (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                version TEXT,
                key TEXT NOT NULL
            );
            CREATE INDEX sources_by_key ON sources (key);
            ALTER TABLE imports ADD COLUMN input_bytes INTEGER;
            ALTER TABLE imports ADD COLUMN input_digest TEXT;
            \(StoreSchema.objectTable("objects", deleted: false));
            \(StoreSchema.objectTable("deleted_objects", deleted: true));
            """)
        // The kinds as this migration wrote them, for good: its own list, not today's.
        let kinds: [(String, Int64)] = [
            ("quantitySample", 0), ("categorySample", 1), ("correlation", 2), ("workout", 3), ("activitySummary", 4),
            ("clinicalRecord", 5), ("audiogram", 6), ("visionPrescription", 7), ("electrocardiogram", 8), ("unknown", 9),
        ]
        for (name, code) in kinds {
            try db.execute(sql: "INSERT INTO kinds (code, name) VALUES (?, ?)", arguments: [code, name])
        }
        let preparer = StoredRowPreparer()
        let numbering = try StoredRowNumbering(db: db, path: path)
        let inserter = try RowInserter(db: db, table: "objects")
        let legacy = LegacyObjectDecoder(db: db, path: path)
        let objects = try Row.fetchCursor(db, sql: "SELECT anchor, kind, uuid, type, device_id, body, import_id FROM legacy_objects ORDER BY anchor")
        while let row = try objects.next() {
            var stored = try preparer.prepare(try legacy.decode(row))
            numbering.number(&stored, anchor: row[0])
            stored.importID = row[6]
            try inserter.insert(stored)
        }
        let tombstones = try RowInserter(db: db, table: "deleted_objects")
        let deleted = try Row.fetchCursor(
            db, sql: "SELECT anchor, kind, uuid, type, device_id, body, import_id, added_anchor FROM legacy_deleted_objects ORDER BY anchor")
        while let row = try deleted.next() {
            var stored = try preparer.prepare(try legacy.decode(row))
            numbering.number(&stored, anchor: row[0])
            stored.importID = row[6]
            stored.addedAnchor = row[7]
            try tombstones.insert(stored)
        }
        try db.execute(sql: "DROP TABLE legacy_objects; DROP TABLE legacy_deleted_objects")
        for index in StoreSchema.objectIndexes { try db.execute(sql: index) }
        try db.execute(sql: "CREATE UNIQUE INDEX deleted_objects_by_uuid ON deleted_objects (uuid)")
        try db.execute(sql: "CREATE INDEX deleted_objects_by_type ON deleted_objects (type_id)")
        try db.execute(sql: StoreSchema.views)
        // The summary tables are made anew once every migration has run
        // (`StoreSummaries.rebuildIfRulesChanged`).
    }
}

/// Reads rows of the layout before `v5`: the object's JSON less what the columns held
/// (`StoredBody`), its device in `devices`.
final class LegacyObjectDecoder {
    let db: Database
    let path: String
    /// Each device decoded once (a store has a few dozen).
    private var devices = StoredDevices()

    init(db: Database, path: String) {
        self.db = db
        self.path = path
    }

    func decode(_ row: Row) throws -> HealthObject {
        let anchor: Int = row[0]
        guard let kind = row[1] as String?, let uuid = row[2] as String?, let type = row[3] as String?, let body = row[5] as String?
        else {
            throw StoreError(.incompatible, "\(path): the store is damaged (object \(anchor) is incomplete)")
        }
        var object: HealthObject
        do {
            object = try ObjectDecoder.decode(StoredBody.restore(body, kind: kind, uuid: uuid, type: type))
        } catch {
            throw StoreError(.incompatible, "\(path): the store is damaged (object \(anchor): \(error))")
        }
        if let id = row[4] as Int64? { object.restoreDevice(try device(id)) }
        return object
    }

    private func device(_ id: Int64) throws -> Device { try devices.device(id, db: db, path: path) }
}
