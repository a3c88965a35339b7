import Foundation
import HealthModel

/// Sorts encoded output records by sort keys in bounded memory.
///
/// Records (already encoded in the output format) are collected with their keys. With a
/// `limit`, only the best `limit` records are kept (a heap), as `HKSampleQueryDescriptor` with a
/// limit returns. Without one, runs of at most `runBudget` bytes are sorted and spilled to
/// private temporary files (mode 0600, unlinked as soon as they are open, so nothing is left
/// behind on exit or error) and merged at the end. The sort is stable: ties keep document order.
public final class ExternalSorter {
    struct Item {
        var keys: [SortKey]
        var ordinal: Int
        var payload: [UInt8]
    }

    private let descriptors: [ObjectSortDescriptor]
    private let limit: Int?
    private let runBudget: Int
    private var items: [Item] = []
    private var bytesInMemory = 0
    private var ordinal = 0
    private var runs: [FileHandle] = []

    /// - Parameters:
    ///   - limit: keep only the first `limit` records of the sorted order.
    ///   - runBudget: bytes of records held in memory before a run is spilled.
    public init(sortDescriptors: [ObjectSortDescriptor], limit: Int?, runBudget: Int = 16 << 20) {
        self.descriptors = sortDescriptors
        self.limit = limit
        self.runBudget = runBudget
    }

    private func precedes(_ a: Item, _ b: Item) -> Bool {
        for (index, descriptor) in descriptors.enumerated() {
            let x = a.keys[index], y = b.keys[index]
            if x == y { continue }
            return descriptor.ascending ? x < y : y < x
        }
        return a.ordinal < b.ordinal
    }

    /// Adds one record.
    public func add(_ object: HealthObject, payload: [UInt8]) throws {
        let item = Item(keys: descriptors.map { $0.key(of: object) }, ordinal: ordinal, payload: payload)
        ordinal += 1
        if let limit, limit <= 100_000 {
            // Keep the best `limit` items; a sorted array with binary insertion is enough here.
            if items.count == limit, let last = items.last, !precedes(item, last) { return }
            var low = 0, high = items.count
            while low < high {
                let mid = (low + high) / 2
                if precedes(items[mid], item) { low = mid + 1 } else { high = mid }
            }
            items.insert(item, at: low)
            if items.count > limit { items.removeLast() }
            return
        }
        items.append(item)
        bytesInMemory += payload.count + 32
        if bytesInMemory >= runBudget { try spill() }
    }

    private func spill() throws {
        items.sort(by: precedes)
        let handle = try Self.temporaryFile()
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        for item in items {
            var record: [UInt8] = []
            withUnsafeBytes(of: Int64(item.ordinal).littleEndian) { record.append(contentsOf: $0) }
            for key in item.keys { key.encode(into: &record) }
            withUnsafeBytes(of: UInt32(item.payload.count).littleEndian) { record.append(contentsOf: $0) }
            record.append(contentsOf: item.payload)
            withUnsafeBytes(of: UInt32(record.count).littleEndian) { buffer.append(contentsOf: $0) }
            buffer.append(contentsOf: record)
            if buffer.count >= 1 << 20 {
                try Self.write(buffer, to: handle)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try Self.write(buffer, to: handle)
        try handle.seek(toOffset: 0)
        runs.append(handle)
        items.removeAll()
        bytesInMemory = 0
    }

    /// Appends a spilled run's bytes; a failure (a full disk) is the temporary folder's.
    private static func write(_ bytes: [UInt8], to handle: FileHandle) throws {
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw TemporaryFileError(
                folder: FileManager.default.temporaryDirectory.path, "cannot write a temporary file for sorting: \(error.localizedDescription)")
        }
    }

    /// Creates a private temporary file and unlinks it at once: it disappears with the process.
    static func temporaryFile() throws -> FileHandle {
        // The system's temporary folder (`TMPDIR` on Unix), as every program's temporary files.
        let directory = FileManager.default.temporaryDirectory.path
        var template = Array("\(directory)/healthport-sort-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw TemporaryFileError(folder: directory, "cannot create a temporary file for sorting: \(String(cString: strerror(errno)))")
        }
        fchmod(fd, 0o600)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    /// A spilled run, read record by record.
    private final class RunReader {
        let handle: FileHandle
        var buffer: [UInt8] = []
        var offset = 0
        var atEnd = false

        init(_ handle: FileHandle) { self.handle = handle }

        func next(keyCount: Int) throws -> Item? {
            func ensure(_ n: Int) throws -> Bool {
                while buffer.count - offset < n {
                    if atEnd { return false }
                    let chunk = try handle.read(upToCount: 1 << 20) ?? Data()
                    if chunk.isEmpty {
                        atEnd = true
                        return false
                    }
                    buffer.removeFirst(offset)
                    offset = 0
                    buffer.append(contentsOf: chunk)
                }
                return true
            }
            guard try ensure(4) else { return nil }
            var length = 0
            for i in 0..<4 { length |= Int(buffer[offset + i]) << (8 * i) }
            offset += 4
            guard try ensure(length) else { return nil }
            let record = Array(buffer[offset..<(offset + length)])
            offset += length
            var cursor = 0
            var ordinal: Int64 = 0
            for i in 0..<8 { ordinal |= Int64(record[i]) << (8 * Int64(i)) }
            cursor = 8
            var keys: [SortKey] = []
            for _ in 0..<keyCount {
                guard let key = SortKey.decode(record, at: &cursor) else { return nil }
                keys.append(key)
            }
            var payloadLength = 0
            for i in 0..<4 { payloadLength |= Int(record[cursor + i]) << (8 * i) }
            cursor += 4
            return Item(keys: keys, ordinal: Int(ordinal), payload: Array(record[cursor..<(cursor + payloadLength)]))
        }
    }

    /// Hands every record's payload to `body`, in sorted order (at most `limit` of them).
    public func drain(_ body: ([UInt8]) throws -> Void) throws {
        var remaining = limit ?? Int.max
        if runs.isEmpty {
            if limit == nil || (limit ?? 0) > 100_000 { items.sort(by: precedes) }
            for item in items where remaining > 0 {
                try body(item.payload)
                remaining -= 1
            }
            items.removeAll()
            return
        }
        if !items.isEmpty { try spill() }
        let readers = runs.map(RunReader.init)
        var heads: [Item?] = try readers.map { try $0.next(keyCount: descriptors.count) }
        while remaining > 0 {
            var best: Int? = nil
            for (index, head) in heads.enumerated() {
                guard let head else { continue }
                if let b = best, let current = heads[b], !precedes(head, current) { continue }
                best = index
            }
            guard let index = best, let item = heads[index] else { break }
            try body(item.payload)
            remaining -= 1
            heads[index] = try readers[index].next(keyCount: descriptors.count)
        }
        runs.removeAll()
    }
}
