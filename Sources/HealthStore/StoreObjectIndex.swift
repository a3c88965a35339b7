import GRDB
import HealthModel

/// How one reading thread of an import finds the store's objects: the anchor of the object
/// with a uuid, or `nil` when the store does not hold it. Each thread (each chunk of a
/// parallel read) has its own, which remembers where the last object was found.
protocol StoreObjectFinder: AnyObject {
    func anchor(of uuid: ObjectUUID) throws -> Int64?
}

/// The store's objects as an import looks them up by uuid: in memory for a store of at most
/// `inMemoryLimit` objects (`StoreIdentities`, about 32 bytes an object), on disk past it
/// (`StoreIdentityCursor`, a window of a few thousand uuids per reading thread), so that an
/// import's memory stays bounded whatever the store's size. Both give the same answers
/// (`StoreObjectIndexTests`); the table in memory is faster on an export that lists the objects in
/// another order than the store took them.
final class StoreObjectIndex: @unchecked Sendable {
    /// Stores of more objects are looked up on disk: a table of this many takes about 8 MB (a
    /// year of a person's data is some 170,000 objects). Below it the table is the faster: with
    /// the 1-year store on disk, the import of the same objects from another file took 0.44 s
    /// where the table took 0.43 s, and that of 60 more days 0.75 s where it took 0.68 s (each
    /// object new to the store a lookup in the uuid index); the 4-year store's table took
    /// 24 MB.
    static let inMemoryLimit = 262_144

    /// The number of objects in the store.
    let count: Int
    /// The store's smallest anchor of an object (0 when it holds none).
    let firstAnchor: Int64
    /// The store's largest anchor of an object (0 when it holds none).
    let lastAnchor: Int64
    private let storage: Storage

    private enum Storage {
        case memory(StoreIdentities)
        case disk(StoreReadConnections)
    }

    /// - Parameter inMemoryLimit: `inMemoryLimit`, lower in the tests that check both ways
    ///   agree.
    /// - Throws: `StoreError.incompatible` for an object before the first position or after the
    ///   store's anchor (`storeAnchor`): a damaged store, whose positions the import's bits by
    ///   anchor (`AnchorSet`) cannot hold.
    init(db: Database, path: String, storeAnchor: Int, inMemoryLimit: Int = StoreObjectIndex.inMemoryLimit) throws {
        count = try Int.fetchOne(db, sql: "SELECT count(*) FROM objects") ?? 0
        let range = try Row.fetchOne(db, sql: "SELECT min(anchor), max(anchor) FROM objects")
        firstAnchor = try range?.decode(Int64?.self, atIndex: 0) ?? 0
        lastAnchor = try range?.decode(Int64?.self, atIndex: 1) ?? 0
        guard firstAnchor >= 0, lastAnchor <= Int64(storeAnchor) else {
            throw StoreError(.incompatible, "\(path): the store is damaged (an object's position is before the first or past the store's anchor)")
        }
        if count <= inMemoryLimit {
            storage = .memory(try StoreIdentities(db: db, path: path, expected: count))
        } else {
            storage = .disk(StoreReadConnections(path: path))
        }
    }

    /// An empty set of this store's anchors (`AnchorSet`).
    func makeAnchorSet() -> AnchorSet {
        AnchorSet(first: firstAnchor, last: lastAnchor, objects: count)
    }

    /// A finder for one reading thread.
    func makeFinder() -> any StoreObjectFinder {
        switch storage {
        case .memory(let identities): return StoreIdentities.Finder(identities)
        case .disk(let connections): return StoreIdentityCursor(connections)
        }
    }
}
