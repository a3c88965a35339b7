import GRDBSQLite
import HealthModel

/// The anchor of the store's object with a uuid, looked up on disk for one reading thread: the
/// way an import recognizes the objects of a store too large to hold their uuids in memory
/// (`StoreObjectIndex.inMemoryLimit`), so that its memory stays the same whatever the store's
/// size.
///
/// An export lists the objects it shares with the store in the order the store took them (by
/// anchor), so the cursor keeps a window of the store's uuids in anchor order, read a run at a
/// time from the table (`objects`' rowid order, pages read once), and compares each object
/// with the next uuid of the window: one comparison an object, as the table in memory makes
/// (`StoreIdentities.Finder`). An object that is not next (the first of a chunk, one of
/// another order) is found through the uuid index (`objects_by_uuid`), and the window moves to
/// it; an object the store does not hold costs that one lookup.
///
/// Reads through a connection of its own (`StoreReadConnections`), which sees the store as the
/// import found it: the import's own rows, uncommitted, are not there.
final class StoreIdentityCursor: StoreObjectFinder {
    /// Rows read after a lookup through the index: few, since an object found out of order may
    /// be followed by others out of order.
    static let jumpRows: Int32 = 64
    /// Rows read when the window is used up in order: a chunk of a parallel read holds about a
    /// thousand objects, and a longer run read rows of the next chunk, whose cursor reads them
    /// again (with 2,048 rows, the 4-year import of another file of the same objects took
    /// 1.61 s where the table in memory took 1.50 s; with 256, 1.58 s against 1.67 s, both
    /// under load, best of three).
    static let runRows: Int32 = 256
    /// How many of the window's next uuids an object is compared with before the index is
    /// asked: an export that lost a few of the store's objects skips them without a lookup.
    static let lookahead = 4

    private let connections: StoreReadConnections
    private var connection: StoreReadConnections.Connection?
    /// The window: uuids and anchors of consecutive objects of the store, in anchor order.
    private var uuids: [ObjectUUID] = []
    private var anchors: [Int64] = []
    /// The window's position of the object expected next.
    private var position = 0
    /// Whether the window ends with the store's last object.
    private var atEnd = false

    init(_ connections: StoreReadConnections) {
        self.connections = connections
        uuids.reserveCapacity(Int(Self.runRows))
        anchors.reserveCapacity(Int(Self.runRows))
    }

    deinit {
        if let connection { connections.release(connection) }
    }

    func anchor(of uuid: ObjectUUID) throws -> Int64? {
        if position == uuids.count, !atEnd, let last = anchors.last {
            let connection = try self.connection ?? acquire()
            try connection.read(connection.run, binding: { sqlite3_bind_int64($0, 1, last) }, rows: Self.runRows, into: &uuids, &anchors)
            position = 0
            atEnd = uuids.count < Int(Self.runRows)
        }
        var index = position
        let end = min(position + Self.lookahead, uuids.count)
        while index < end {
            if uuids[index] == uuid {
                position = index + 1
                return anchors[index]
            }
            index += 1
        }
        let connection = try self.connection ?? acquire()
        var foundUUIDs: [ObjectUUID] = []
        var foundAnchors: [Int64] = []
        try connection.read(
            connection.jump,
            binding: { statement in
                withUnsafeBytes(of: (uuid.high.bigEndian, uuid.low.bigEndian)) { bytes in
                    _ = sqlite3_bind_blob(statement, 1, bytes.baseAddress, 16, StoreReadConnections.transient)
                }
            }, rows: Self.jumpRows, into: &foundUUIDs, &foundAnchors)
        // Not in the store: the window stays, for the objects after this new one.
        guard let anchor = foundAnchors.first, foundUUIDs.first == uuid else { return nil }
        uuids = foundUUIDs
        anchors = foundAnchors
        position = 1
        atEnd = uuids.count < Int(Self.jumpRows)
        return anchor
    }

    private func acquire() throws -> StoreReadConnections.Connection {
        let connection = try connections.acquire()
        self.connection = connection
        return connection
    }
}
