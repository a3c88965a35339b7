import GRDB
import HealthJSON
import HealthModel

/// The rows of the layouts before `v5` (uuids and types as text, every object as JSON), which
/// the `v5` migration keeps as they were in `legacy_objects` and `legacy_deleted_objects`,
/// moved into the compact tables once every migration has run, in the migrations' transaction
/// (`StoreMigrator.finish`): killed halfway, the store is the older one still.
///
/// Not a migration: it runs today's code (`LegacyObjectDecoder`, `StoredRowPreparer`) against
/// today's tables, whatever layouts came after `v5`, so each row is decoded as the older
/// healthport read it and encoded as an import now encodes it. A moved store holds the rows a
/// new import of the same objects would have written, at the same anchors; tombstones keep the
/// position they were added at, every row its import.
enum LegacyRowMove {
    /// Moves the legacy rows, if the store has any, and drops their tables.
    static func moveIfPresent(_ db: Database, path: String) throws {
        guard try StoreSchema.hasTable(db, "legacy_objects") else { return }
        let preparer = StoredRowPreparer()
        let numbering = try StoredRowNumbering(db: db, path: path)
        let inserter = try RowInserter(db: db, table: "objects")
        let legacy = LegacyObjectDecoder(db: db, path: path)
        let objects = try Row.fetchCursor(db, sql: "SELECT anchor, kind, uuid, type, device_id, body, import_id FROM legacy_objects ORDER BY anchor")
        while let row = try objects.next() {
            var stored = try preparer.prepare(try legacy.decode(row))
            numbering.number(&stored, anchor: try row.decode(atIndex: 0))
            stored.importID = try row.decode(atIndex: 6)
            try inserter.insert(stored)
        }
        let tombstones = try RowInserter(db: db, table: "deleted_objects")
        let deleted = try Row.fetchCursor(
            db, sql: "SELECT anchor, kind, uuid, type, device_id, body, import_id, added_anchor FROM legacy_deleted_objects ORDER BY anchor")
        while let row = try deleted.next() {
            var stored = try preparer.prepare(try legacy.decode(row))
            numbering.number(&stored, anchor: try row.decode(atIndex: 0))
            stored.importID = try row.decode(atIndex: 6)
            stored.addedAnchor = try row.decode(atIndex: 7)
            try tombstones.insert(stored)
        }
        try db.execute(sql: "DROP TABLE legacy_objects; DROP TABLE legacy_deleted_objects")
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
        let anchor: Int = try row.decode(atIndex: 0)
        guard let kind = try row.decode(String?.self, atIndex: 1), let uuid = try row.decode(String?.self, atIndex: 2),
            let type = try row.decode(String?.self, atIndex: 3), let body = try row.decode(String?.self, atIndex: 5)
        else {
            throw StoreError(.incompatible, "\(path): the store is damaged (object \(anchor) is incomplete)")
        }
        var object: HealthObject
        do {
            object = try ObjectDecoder.decode(StoredBody.restore(body, kind: kind, uuid: uuid, type: type))
        } catch {
            throw StoreError(.incompatible, "\(path): the store is damaged (object \(anchor): \(error))")
        }
        if let id = try row.decode(Int64?.self, atIndex: 4) { object.restoreDevice(try device(id)) }
        return object
    }

    private func device(_ id: Int64) throws -> Device { try devices.device(id, db: db, path: path) }
}
