import Foundation
import HealthModel

/// A sample as the daily summary needs it: its type, its source and that source's rank, its
/// time and its value, in 40 bytes (a sample's model value is several hundred).
struct SummaryRecord: Sendable {
    var type: Int32
    var source: Int32
    var tier: Int32
    var order: Int32
    var start: Double
    var end: Double
    /// A quantity in its type's canonical unit; a category sample's value; 1 for a workout.
    var value: Double

    /// The order the summary reads records in: by type, then time.
    @inline(__always)
    static func precedes(_ a: SummaryRecord, _ b: SummaryRecord) -> Bool {
        if a.type != b.type { return a.type < b.type }
        if a.start != b.start { return a.start < b.start }
        if a.end != b.end { return a.end < b.end }
        if a.tier != b.tier { return a.tier < b.tier }
        if a.order != b.order { return a.order < b.order }
        return a.value < b.value
    }
}

/// Sorts any number of records by type and time in bounded memory: records are gathered in a
/// buffer of `runCapacity`, each full buffer sorted and written to an unnamed temporary file (a
/// run), and the runs merged at the end, each read through a small window.
///
/// Exports are not sorted by time (an iPhone's and a Watch's samples interleave, sources are
/// written one after another), and a day's numbers need every sample that touches the day; so
/// the summary sorts. Memory: the buffer (`defaultRunCapacity`), as much again while a full
/// one is sorted (the sort's scratch), and 160 KB per run, whatever the export's size; an
/// export of up to 131,072 samples never touches the disk.
final class SummaryRecordSorter {
    /// 131,072 records: 5 MB, and 5 MB more while sorted. With twice that, the 4-year export's
    /// `healthport summary` peaked at 63.7 MB, at the 64 MB goal (`Benchmarks/summaries.sh`);
    /// more runs cost nothing measurable (the merge reads each through its window).
    static let defaultRunCapacity = 131_072

    private let runCapacity: Int
    private var buffer: [SummaryRecord] = []
    private var runs: [(descriptor: Int32, count: Int)] = []
    private(set) var count = 0

    init(runCapacity: Int = SummaryRecordSorter.defaultRunCapacity) {
        self.runCapacity = max(2, runCapacity)
        buffer.reserveCapacity(min(self.runCapacity, 4096))
    }

    deinit {
        for run in runs { close(run.descriptor) }
    }

    func append(_ record: SummaryRecord) throws {
        buffer.append(record)
        count += 1
        if buffer.count >= runCapacity { try spill() }
    }

    private func spill() throws {
        buffer.sort(by: SummaryRecord.precedes)
        let descriptor = try Self.temporaryFile()
        let bytes = buffer.count * MemoryLayout<SummaryRecord>.stride
        try buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < bytes {
                let written = write(descriptor, raw.baseAddress! + offset, bytes - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    close(descriptor)
                    throw TemporaryFileError(
                        folder: FileManager.default.temporaryDirectory.path,
                        "cannot write the summary's temporary file: \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
        runs.append((descriptor, buffer.count))
        buffer.removeAll(keepingCapacity: true)
    }

    /// Every record, in order, to `body`. Once.
    func drain(_ body: (SummaryRecord) throws -> Void) throws {
        if runs.isEmpty {
            buffer.sort(by: SummaryRecord.precedes)
            for record in buffer { try body(record) }
            buffer = []
            return
        }
        if !buffer.isEmpty { try spill() }
        buffer = []
        var readers = try runs.map { try RunReader(descriptor: $0.descriptor, count: $0.count) }
        // A binary heap of run indices, by each run's current record.
        var heap: [Int] = []
        func less(_ a: Int, _ b: Int) -> Bool { SummaryRecord.precedes(readers[a].current!, readers[b].current!) }
        func siftDown(_ start: Int) {
            var i = start
            while true {
                let l = 2 * i + 1, r = l + 1
                var smallest = i
                if l < heap.count && less(heap[l], heap[smallest]) { smallest = l }
                if r < heap.count && less(heap[r], heap[smallest]) { smallest = r }
                if smallest == i { return }
                heap.swapAt(i, smallest)
                i = smallest
            }
        }
        for index in readers.indices where readers[index].current != nil { heap.append(index) }
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
        while let top = heap.first {
            try body(readers[top].current!)
            try readers[top].advance()
            if readers[top].current == nil {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            if !heap.isEmpty { siftDown(0) }
        }
    }

    /// One run read through a window of 4,096 records.
    struct RunReader {
        let descriptor: Int32
        var remaining: Int
        var window: [SummaryRecord] = []
        var position = 0
        var current: SummaryRecord?

        init(descriptor: Int32, count: Int) throws {
            self.descriptor = descriptor
            remaining = count
            guard lseek(descriptor, 0, SEEK_SET) == 0 else {
                throw QueryError(.errorInvalidArgument, "cannot read the summary's temporary file")
            }
            try advance()
        }

        mutating func advance() throws {
            if position >= window.count {
                guard remaining > 0 else {
                    current = nil
                    return
                }
                let take = min(remaining, 4096)
                window = [SummaryRecord](repeating: SummaryRecord(type: 0, source: 0, tier: 0, order: 0, start: 0, end: 0, value: 0), count: take)
                let bytes = take * MemoryLayout<SummaryRecord>.stride
                let descriptor = self.descriptor
                try window.withUnsafeMutableBytes { raw in
                    var offset = 0
                    while offset < bytes {
                        let got = read(descriptor, raw.baseAddress! + offset, bytes - offset)
                        if got < 0 && errno == EINTR { continue }
                        guard got > 0 else { throw QueryError(.errorInvalidArgument, "cannot read the summary's temporary file") }
                        offset += got
                    }
                }
                remaining -= take
                position = 0
            }
            current = window[position]
            position += 1
        }
    }

    /// A private temporary file without a name: it disappears with the process.
    static func temporaryFile() throws -> Int32 {
        let directory = FileManager.default.temporaryDirectory.path
        #if os(Linux)
        let unnamed = open(directory, 0o20_000_000 | O_DIRECTORY | O_RDWR | O_CLOEXEC, 0o600)
        if unnamed >= 0 { return unnamed }
        #endif
        var template = Array("\(directory)/healthport-summary-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw TemporaryFileError(folder: directory, "cannot create a temporary file for the summary: \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return descriptor
    }
}
