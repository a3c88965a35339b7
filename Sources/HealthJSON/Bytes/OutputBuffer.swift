#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthModel

/// One reusable byte buffer in front of a file descriptor: every writer appends here. It lives
/// with the JSON codec because the encoder writes into it; `HealthOutput` writes through it too.
///
/// Writers append bytes (static keys, interned strings, digits formatted in place); the buffer
/// goes to `write(2)` when it passes `flushThreshold` at a record boundary, so a stopped run
/// leaves only whole records behind. Partial writes and `EINTR` are retried; `EPIPE` becomes
/// `OutputError.brokenPipe`, which the CLI turns into a quiet exit.
public final class OutputBuffer {
    /// Where the bytes go; `-1`: nowhere (a memory buffer), unless a `lender` lends one.
    public let descriptor: Int32
    /// Lends the descriptor for each write, when set: a writer of more files than may be open
    /// at once (`FileDescriptorPool`: a CSV folder of a thousand types under `ulimit -n 1024`)
    /// keeps a file closed between its buffer's flushes.
    public private(set) weak var lender: (any DescriptorLender)?
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) public private(set) var count = 0
    /// Flush after every record (a terminal), instead of when the buffer is full.
    @exclusivity(unchecked) public var flushesEveryRecord = false
    public let flushThreshold: Int
    /// The last calendar day formatted by `appendISO8601`, and its `yyyy-MM-dd` bytes: samples
    /// come in runs within one day, so the civil-date arithmetic usually runs once per day.
    @exclusivity(unchecked) private var cachedLocalDay: Int64 = .min
    @exclusivity(unchecked) private var cachedDayText: (UInt64, UInt16) = (0, 0)

    /// Appends `yyyy-MM-ddTHH:mm:ss±hh:mm` in the timestamp's printed offset.
    @inline(__always)
    public func appendISO8601(_ timestamp: ExportTimestamp) {
        let local = timestamp.secondsSince1970 + Int64(timestamp.utcOffsetSeconds)
        var day = local / 86_400
        var secondOfDay = local % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            day -= 1
        }
        let p = reserve(ExportTimestamp.iso8601Length)
        if day == cachedLocalDay {
            withUnsafeBytes(of: cachedDayText.0) { UnsafeMutableRawPointer(p).copyMemory(from: $0.baseAddress!, byteCount: 8) }
            withUnsafeBytes(of: cachedDayText.1) { UnsafeMutableRawPointer(p + 8).copyMemory(from: $0.baseAddress!, byteCount: 2) }
        } else {
            timestamp.formatISO8601(into: p)
            cachedLocalDay = day
            cachedDayText = (UnsafeRawPointer(p).loadUnaligned(as: UInt64.self), UnsafeRawPointer(p + 8).loadUnaligned(as: UInt16.self))
        }
        let sod = Int(secondOfDay)
        p[10] = 0x54
        Self.put2(p + 11, sod / 3600)
        p[13] = 0x3A
        Self.put2(p + 14, (sod / 60) % 60)
        p[16] = 0x3A
        Self.put2(p + 17, sod % 60)
        let offset = Int(timestamp.utcOffsetSeconds)
        p[19] = offset < 0 ? 0x2D : 0x2B
        let magnitude = abs(offset)
        Self.put2(p + 20, magnitude / 3600)
        p[22] = 0x3A
        Self.put2(p + 23, (magnitude / 60) % 60)
        count += ExportTimestamp.iso8601Length
    }

    /// `timestamp`'s wall-clock date and time at its own offset, without the offset
    /// (`2024-07-01T08:30:00`): a local time, as `LocalTimes` gives it.
    public func appendLocalDateTime(_ timestamp: ExportTimestamp) {
        appendISO8601(timestamp)
        count -= ExportTimestamp.iso8601Length - 19
    }

    /// `2020-12-06T11:26:02.34-08:00`: an instant with the hundredths of a second past it (a
    /// heartbeat's time, which the export prints to the hundredth), as NDJSON and CSV both write it.
    package func appendISO8601(_ timestamp: ExportTimestamp, hundredths: Int) {
        var bytes = [UInt8](repeating: 0, count: ExportTimestamp.iso8601Length)
        bytes.withUnsafeMutableBufferPointer { timestamp.formatISO8601(into: $0.baseAddress!) }
        append(contentsOf: Array(bytes[0..<19]))
        append(0x2E)
        append(UInt8(48 + (hundredths / 10) % 10))
        append(UInt8(48 + hundredths % 10))
        append(contentsOf: Array(bytes[19...]))
    }

    @inline(__always)
    private static func put2(_ p: UnsafeMutablePointer<UInt8>, _ v: Int) {
        p[0] = UInt8(truncatingIfNeeded: 48 + v / 10)
        p[1] = UInt8(truncatingIfNeeded: 48 + v % 10)
    }

    /// The JSON of the last device written, keyed by its storage: samples from one device come in
    /// long runs, and a device object has up to ten fields to escape.
    @exclusivity(unchecked) var cachedDeviceToken: ObjectIdentifier? = nil
    @exclusivity(unchecked) var cachedDeviceJSON: [UInt8] = []
    /// Keeps the cached device's storage alive, so its token cannot be reused by another object.
    @exclusivity(unchecked) var cachedDevice: Device? = nil

    /// Bytes written to the descriptor so far.
    @exclusivity(unchecked) public private(set) var bytesWritten: Int64 = 0

    public init(descriptor: Int32, capacity: Int = 256 * 1024) {
        self.descriptor = descriptor
        self.capacity = capacity
        self.flushThreshold = capacity - capacity / 4
        storage = .allocate(capacity: capacity)
    }

    /// A buffer whose file `lender` opens when a write needs it.
    public init(lender: any DescriptorLender, capacity: Int = 256 * 1024) {
        self.descriptor = -1
        self.lender = lender
        self.capacity = capacity
        self.flushThreshold = capacity - capacity / 4
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deallocate()
    }

    /// Makes room for `n` more bytes and returns where they go; the caller must `advance(by:)`.
    @inline(__always)
    public func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if count + n > capacity { grow(count + n) }
        return storage + count
    }

    @inline(__always)
    public func advance(by n: Int) {
        count += n
    }

    private func grow(_ needed: Int) {
        UnsafeMutablePointer.grow(&storage, count: count, capacity: &capacity, toHold: needed)
    }

    @inline(__always)
    public func append(_ byte: UInt8) {
        if count == capacity { grow(count + 1) }
        storage[count] = byte
        count += 1
    }

    @inline(__always)
    public func append(_ literal: StaticString) {
        let n = literal.utf8CodeUnitCount
        let p = reserve(n)
        p.update(from: literal.utf8Start, count: n)
        count += n
    }

    @inline(__always)
    public func append(_ bytes: UnsafeRawBufferPointer) {
        let n = bytes.count
        guard n > 0 else { return }
        let p = reserve(n)
        UnsafeMutableRawPointer(p).copyMemory(from: bytes.baseAddress!, byteCount: n)
        count += n
    }

    @inline(__always)
    public func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends a string's UTF-8 bytes as they are (no escaping).
    @inline(__always)
    public func appendRaw(_ string: String) {
        var s = string
        s.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends a decimal integer.
    public func append(int value: Int) {
        if value >= 0 && value < 10 {
            append(UInt8(48 + value))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        var v = value.magnitude
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[19 - n] = UInt8(48 + v % 10)
                v /= 10
                n += 1
            } while v > 0
            if value < 0 { append(0x2D) }
            append(UnsafeRawBufferPointer(rebasing: d[(20 - n)...]))
        }
    }

    /// Ends a record: flushes when the buffer is past its threshold, or always on a terminal.
    @inline(__always)
    public func endRecord() throws {
        if flushesEveryRecord || count >= flushThreshold { try flush() }
    }

    /// A buffer with no descriptor (`-1`) only collects bytes: `flush` keeps them.
    public var isMemoryBuffer: Bool { descriptor < 0 && lender == nil }

    /// The bytes buffered, valid until the next append.
    public var buffered: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

    /// The bytes collected so far; empties the buffer.
    public func takeBytes() -> [UInt8] {
        let bytes = Array(UnsafeBufferPointer(start: storage, count: count))
        count = 0
        return bytes
    }

    /// Writes everything buffered.
    public func flush() throws {
        if isMemoryBuffer { return }
        try writeAll(UnsafeRawBufferPointer(start: storage, count: count))
        count = 0
    }

    /// Appends a large block of finished records (a parallel read's chunk): written straight
    /// from where it is, after what is buffered, instead of copied into the buffer first.
    public func appendRecords(_ bytes: UnsafeRawBufferPointer) throws {
        if isMemoryBuffer || bytes.count < flushThreshold / 2 || flushesEveryRecord {
            append(bytes)
            try endRecord()
            return
        }
        try flush()
        try writeAll(bytes)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress else { return }
        let descriptor = try lender?.descriptor(for: self) ?? descriptor
        var offset = 0
        while offset < bytes.count {
            let n = write(descriptor, base + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                count = 0
                if code == EPIPE { throw OutputError(.brokenPipe, "broken pipe") }
                throw OutputError(.ioError, "write failed: \(String(cString: strerror(code)))")
            }
            offset += n
        }
        bytesWritten += Int64(bytes.count)
    }

    /// Drops what is buffered (after a failure, so nothing half-made is written).
    public func discard() {
        count = 0
    }
}

/// Lends an `OutputBuffer` the descriptor of its file for a write, opening it again if it was
/// closed to keep the number of open files bounded.
public protocol DescriptorLender: AnyObject {
    /// The open descriptor of `buffer`'s file.
    ///
    /// - Throws: `OutputError.ioError` when the file cannot be opened again.
    func descriptor(for buffer: OutputBuffer) throws -> Int32
}
