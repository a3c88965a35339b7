#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
/// Maps attribute bytes to a value made once per distinct byte string.
///
/// `type`, `unit`, `sourceName`, `sourceVersion` and `device` repeat millions of times with a
/// handful of distinct values, in long runs. The last value seen is checked first (one length
/// compare and one `memcmp`, which usually hits); only on a miss are the bytes hashed (FNV-1a)
/// and looked up in an open-addressing table. A hit costs a retain, not an allocation.
///
/// The table is bounded (`capacityLimit` distinct values): past it, values are made afresh and
/// not remembered, so a hostile file with millions of distinct names cannot grow memory.
final class ByteInterner<Value> {
    private struct Entry {
        var hash: UInt64
        var bytes: [UInt8]
        var value: Value
    }

    @exclusivity(unchecked) private var entries: [Entry] = []
    @exclusivity(unchecked) private var slots: [Int32] = Array(repeating: -1, count: 256)
    @exclusivity(unchecked) private var lastBytes: [UInt8] = []
    @exclusivity(unchecked) private var lastValue: Value?
    /// The value before the last: records from two sources often alternate.
    @exclusivity(unchecked) private var previousBytes: [UInt8] = []
    @exclusivity(unchecked) private var previousValue: Value?
    private let make: (UnsafeRawBufferPointer) -> Value
    let capacityLimit: Int

    init(capacityLimit: Int = 65_536, make: @escaping (UnsafeRawBufferPointer) -> Value) {
        self.make = make
        self.capacityLimit = capacityLimit
    }

    var count: Int { entries.count }

    @inline(__always)
    func value(for bytes: UnsafeRawBufferPointer) -> Value {
        if let lastValue, lastBytes.count == bytes.count,
            lastBytes.withUnsafeBytes({ bytes.count == 0 || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
        {
            return lastValue
        }
        if let previousValue, previousBytes.count == bytes.count,
            previousBytes.withUnsafeBytes({ bytes.count == 0 || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
        {
            swap(&lastBytes, &previousBytes)
            self.previousValue = lastValue
            lastValue = previousValue
            return previousValue
        }
        let value = lookup(bytes)
        swap(&lastBytes, &previousBytes)
        previousValue = lastValue
        lastBytes.removeAll(keepingCapacity: true)
        lastBytes.append(contentsOf: bytes)
        lastValue = value
        return value
    }

    private func lookup(_ bytes: UnsafeRawBufferPointer) -> Value {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3
        }
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        while true {
            let slot = slots[i]
            if slot < 0 { break }
            let entry = entries[Int(slot)]
            if entry.hash == hash && entry.bytes.count == bytes.count
                && entry.bytes.withUnsafeBytes({ bytes.count == 0 || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
            {
                return entry.value
            }
            i = (i + 1) & mask
        }
        let value = make(bytes)
        guard entries.count < capacityLimit else { return value }
        slots[i] = Int32(entries.count)
        entries.append(Entry(hash: hash, bytes: Array(bytes), value: value))
        if entries.count * 2 > slots.count { grow() }
        return value
    }

    private func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (index, entry) in entries.enumerated() {
            var i = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[i] >= 0 { i = (i + 1) & mask }
            slots[i] = Int32(index)
        }
    }
}
