import GRDB
import GRDBSQLite
import HealthModel

/// The uuids of the store's objects and their anchors, for an import to recognize what it holds
/// already: about 30 bytes an object (18 MB for the 572,867 of the 4-year export), the only
/// part of an import's memory that grows with the store.
///
/// An open-addressing table of indexes keyed by the uuid's own bits (derived uuids are
/// SHA-256 output, uniform already): one probe, about one cache miss, per object read. A binary
/// search over the sorted uuids took twenty misses, 14.5 % of a re-import's samples, and
/// sorting them at load 5 % more (perf, the 4-year export of `Benchmarks/store.sh`).
///
/// Immutable once loaded, and read by every chunk's thread at once through raw buffers: reading
/// Swift arrays held in a shared value retained and released their storage on each lookup, and
/// the two cores' atomic counts on one cache line cost as much as the lookup itself.
final class StoreIdentities: @unchecked Sendable {
    /// The number of objects.
    private(set) var count = 0
    /// Parallel to the uuids: each object's row (`objects.anchor`), so that a deletion finds it
    /// by rowid.
    private(set) var anchors: [Int64] = []
    /// Index + 1 into `table`; 0 is an empty slot. At least twice as many slots as objects.
    private let slots: UnsafeMutableBufferPointer<Int32>
    /// The uuids, in anchor order.
    private let table: UnsafeMutableBufferPointer<ObjectUUID>
    private let mask: Int

    /// The uuid at a position.
    func uuid(at index: Int) -> ObjectUUID { table[index] }

    /// Parallel to the uuids, when loaded: the platform of the import that added each object
    /// (`importPlatforms`' code), for a store holding both phones' objects, of which an import
    /// replaces only its own platform's (`Importer.finish`). `nil` when not asked for: a store
    /// of one platform needs no code per object.
    private(set) var platforms: [UInt8]? = nil

    /// Loads every object's uuid and anchor, in anchor order (`index(of:after:)` counts on it),
    /// through SQLite's C API (a GRDB `Row` per object cost more than the read).
    ///
    /// - Parameter importPlatforms: when given, each import's platform code by its id: each
    ///   object's is kept (`platforms`); an import missing from it counts as code 255.
    /// - Throws: `StoreError.incompatible` for a uuid that is not 16 bytes.
    init(db: Database, path: String, importPlatforms: [Int64: UInt8]? = nil) throws {
        // Counted first (from the uuid index, the smallest), so the uuids go straight to their
        // buffer: no array of them beside it at the peak.
        let expected = try Int.fetchOne(db, sql: "SELECT count(*) FROM objects") ?? 0
        var capacity = 16
        while capacity < expected * 2 { capacity <<= 1 }
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: 0)
        mask = capacity - 1
        table = .allocate(capacity: max(expected, 1))
        var anchors: [Int64] = []
        anchors.reserveCapacity(expected)
        var platforms: [UInt8] = []
        if importPlatforms != nil { platforms.reserveCapacity(expected) }
        /// The last import met and its code: objects come in runs of one import.
        var lastImport: (id: Int64, code: UInt8) = (-1, 255)
        var statement: OpaquePointer?
        // The import's column only when asked for: this reads every row of the store at every
        // import, and a store of one platform needs no code per object.
        let sql = importPlatforms == nil ? "SELECT uuid, anchor FROM objects ORDER BY anchor" : "SELECT uuid, anchor, import_id FROM objects ORDER BY anchor"
        guard sqlite3_prepare_v2(db.sqliteConnection, sql, -1, &statement, nil) == SQLITE_OK else {
            throw StoreError(.database, "\(path): \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
        }
        defer { sqlite3_finalize(statement) }
        while count < expected {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw StoreError(.database, "\(path): \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
            }
            guard sqlite3_column_type(statement, 0) == SQLITE_BLOB, sqlite3_column_bytes(statement, 0) == 16,
                let blob = sqlite3_column_blob(statement, 0),
                let uuid = StoredRow.uuid(UnsafeRawBufferPointer(start: blob, count: 16))
            else {
                throw StoreError(.incompatible, "\(path): the store is damaged (object \(sqlite3_column_int64(statement, 1)) has no valid uuid)")
            }
            (table.baseAddress! + count).initialize(to: uuid)
            anchors.append(sqlite3_column_int64(statement, 1))
            if let importPlatforms {
                let id = sqlite3_column_int64(statement, 2)
                if id != lastImport.id { lastImport = (id, importPlatforms[id] ?? 255) }
                platforms.append(lastImport.code)
            }
            var slot = Self.hash(uuid) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(count + 1)
            count += 1
        }
        self.anchors = anchors
        if importPlatforms != nil { self.platforms = platforms }
    }

    deinit {
        slots.deallocate()
        table.deallocate()
    }

    @inline(__always)
    private static func hash(_ uuid: ObjectUUID) -> Int {
        // Stored uuids may be any bytes (not only derived ones): mixed, so that no pattern in
        // them clusters the table.
        Int(truncatingIfNeeded: (uuid.high ^ (uuid.low &* 0x9E37_79B9_7F4A_7C15)) >> 17)
    }

    /// The position of a uuid, tried first at `expected`: an export lists the objects
    /// it shares with the store in the order the store took them (by anchor), so after one is
    /// found the next is usually the next, a read of memory already on its way. Two cache
    /// misses an object otherwise (the slot, then the uuid): 14 % of a re-import's samples.
    @inline(__always)
    func index(of uuid: ObjectUUID, expected: Int) -> Int? {
        if expected >= 0, expected < count, table[expected] == uuid { return expected }
        return index(of: uuid)
    }

    /// The position of a uuid; `nil` when the store does not hold it.
    @inline(__always)
    func index(of uuid: ObjectUUID) -> Int? {
        let slots = UnsafePointer(self.slots.baseAddress!)
        let table = UnsafePointer(self.table.baseAddress!)
        var slot = Self.hash(uuid) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return nil }
            if table[entry - 1] == uuid { return entry - 1 }
            slot = (slot + 1) & mask
        }
    }
}
