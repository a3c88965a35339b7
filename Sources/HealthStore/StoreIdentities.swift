import GRDB
import GRDBSQLite
import HealthModel

/// The uuids of the store's objects and their anchors, in memory, for an import into a store of
/// at most `StoreObjectIndex.inMemoryLimit` objects to recognize what it holds already: about 32
/// bytes an object. A larger store is looked up on disk instead (`StoreIdentityCursor`), so that
/// an import's memory does not grow with the store.
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
    /// Parallel to the uuids: each object's row (`objects.anchor`).
    private let anchors: UnsafeMutableBufferPointer<Int64>
    /// Index + 1 into `table`; 0 is an empty slot. At least twice as many slots as objects.
    private let slots: UnsafeMutableBufferPointer<Int32>
    /// The uuids, in anchor order.
    private let table: UnsafeMutableBufferPointer<ObjectUUID>
    private let mask: Int

    /// Loads every object's uuid and anchor, in anchor order (`Finder` counts on it), through
    /// SQLite's C API (a GRDB `Row` per object cost more than the read).
    ///
    /// - Parameter expected: the number of objects (`SELECT count(*) FROM objects`).
    /// - Throws: `StoreError.incompatible` for a uuid that is not 16 bytes.
    init(db: Database, path: String, expected: Int) throws {
        var capacity = 16
        while capacity < expected * 2 { capacity <<= 1 }
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: 0)
        mask = capacity - 1
        table = .allocate(capacity: max(expected, 1))
        anchors = .allocate(capacity: max(expected, 1))
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db.sqliteConnection, "SELECT uuid, anchor FROM objects ORDER BY anchor", -1, &statement, nil) == SQLITE_OK else {
            throw StoreError(.database, "\(path): \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
        }
        defer { sqlite3_finalize(statement) }
        while count < expected {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw StoreError(.database, "\(path): \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
            }
            guard let uuid = StoreIdentities.uuid(statement, column: 0) else {
                throw StoreError(.incompatible, "\(path): the store is damaged (object \(sqlite3_column_int64(statement, 1)) has no valid uuid)")
            }
            (table.baseAddress! + count).initialize(to: uuid)
            (anchors.baseAddress! + count).initialize(to: sqlite3_column_int64(statement, 1))
            var slot = Self.hash(uuid) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(count + 1)
            count += 1
        }
    }

    /// A column's uuid: 16 bytes of blob; `nil` for anything else.
    static func uuid(_ statement: OpaquePointer?, column: Int32) -> ObjectUUID? {
        guard sqlite3_column_type(statement, column) == SQLITE_BLOB, sqlite3_column_bytes(statement, column) == 16,
            let blob = sqlite3_column_blob(statement, column)
        else { return nil }
        return StoredRow.uuid(UnsafeRawBufferPointer(start: blob, count: 16))
    }

    deinit {
        slots.deallocate()
        table.deallocate()
        anchors.deallocate()
    }

    @inline(__always)
    private static func hash(_ uuid: ObjectUUID) -> Int {
        // Stored uuids may be any bytes (not only derived ones): mixed, so that no pattern in
        // them clusters the table.
        Int(truncatingIfNeeded: (uuid.high ^ (uuid.low &* 0x9E37_79B9_7F4A_7C15)) >> 17)
    }

    /// The anchor of the object with a uuid, for one reading thread: tried first at the position
    /// after the last one found, since an export lists the objects it shares with the store in
    /// the order the store took them (by anchor), so after one is found the next is usually the
    /// next, a read of memory already on its way. Two cache misses an object otherwise (the
    /// slot, then the uuid): 14 % of a re-import's samples.
    final class Finder: StoreObjectFinder {
        private let identities: StoreIdentities
        private var expected = -1

        init(_ identities: StoreIdentities) { self.identities = identities }

        @inline(__always)
        func anchor(of uuid: ObjectUUID) -> Int64? {
            let expected = self.expected
            let index: Int
            if expected >= 0, expected < identities.count, identities.table[expected] == uuid {
                index = expected
            } else if let found = identities.index(of: uuid) {
                index = found
            } else {
                return nil
            }
            self.expected = index + 1
            return identities.anchors[index]
        }
    }

    /// The position of a uuid; `nil` when the store does not hold it.
    @inline(__always)
    private func index(of uuid: ObjectUUID) -> Int? {
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
