import Crypto
import Foundation
import HealthModel

/// The objects of one export a consumer could see, as (uuid, type) pairs sorted by uuid: what an
/// anchor remembers in place of the export. About 17–20 bytes per object, no bodies.
public struct IdentitySet: Sendable, Equatable {
    public private(set) var uuids: [ObjectUUID] = []
    /// Index into `types`, parallel to `uuids`.
    public private(set) var typeIndices: [UInt16] = []
    public private(set) var types: [String] = []
    private var sorted = true

    public init() {}

    public var count: Int { uuids.count }

    /// Adds an object; call `finish` once all are added.
    public mutating func insert(_ uuid: ObjectUUID, type: String) {
        let index: UInt16
        if let existing = types.firstIndex(of: type) {
            index = UInt16(existing)
        } else {
            types.append(type)
            index = UInt16(min(types.count - 1, Int(UInt16.max)))
        }
        if let last = uuids.last, uuid < last { sorted = false }
        uuids.append(uuid)
        typeIndices.append(index)
    }

    /// Sorts by uuid (stable for equal uuids, which derived uuids never are).
    public mutating func finish() {
        guard !sorted else { return }
        let order = uuids.indices.sorted { uuids[$0] < uuids[$1] }
        uuids = order.map { uuids[$0] }
        typeIndices = order.map { typeIndices[$0] }
        sorted = true
    }

    /// The position of a uuid, by binary search; `nil` when absent.
    public func index(of uuid: ObjectUUID) -> Int? {
        var low = 0
        var high = uuids.count
        while low < high {
            let mid = (low + high) / 2
            if uuids[mid] < uuid { low = mid + 1 } else { high = mid }
        }
        return low < uuids.count && uuids[low] == uuid ? low : nil
    }

    public func type(at index: Int) -> String { types[Int(typeIndices[index])] }

    /// An order-independent digest of the set: identifies a snapshot.
    public var digest: ObjectUUID {
        var hasher = SHA256()
        for uuid in uuids {
            withUnsafeBytes(of: uuid.high.bigEndian) { hasher.update(bufferPointer: $0) }
            withUnsafeBytes(of: uuid.low.bigEndian) { hasher.update(bufferPointer: $0) }
        }
        return hasher.finalize().withUnsafeBytes { raw in
            var high: UInt64 = 0, low: UInt64 = 0
            for i in 0..<8 { high = high << 8 | UInt64(raw[i]) }
            for i in 8..<16 { low = low << 8 | UInt64(raw[i]) }
            return ObjectUUID(high: high, low: low)
        }
    }
}
