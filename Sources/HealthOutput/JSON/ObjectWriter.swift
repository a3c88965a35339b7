import HealthJSON
import HealthModel

/// What every output format implements: a header, the objects in order, and an end.
///
/// Writers never collect objects: each one is encoded into the output buffer as it arrives.
public protocol ObjectWriter: AnyObject {
    func begin(_ header: ExportHeader) throws
    func write(_ object: HealthObject) throws
    /// Completes the output (closes the JSON array, flushes, renames files into place).
    func finish() throws
    /// Abandons the output after a failure: nothing half-written is left behind.
    func abandon()
}

/// A writer that streams into one output (NDJSON, a JSON document, Apple's export): made on
/// standard output or on a file, and committed or abandoned with it.
public protocol StreamingObjectWriter: ObjectWriter {
    init(_ output: OpenedOutput)
}

extension StreamingObjectWriter {
    /// Writes to a buffer the caller owns (standard output).
    public init(buffer: OutputBuffer) { self.init(OpenedOutput(buffer: buffer)) }

    /// Writes to a file, atomically.
    public init(file: AtomicFile) { self.init(OpenedOutput(file: file)) }
}

/// NDJSON: one JSON object per line, UTF-8, `\n`-terminated; the first line (`"kind":"export"`)
/// describes the export, every other line is one object with a `kind` discriminator.
public final class NDJSONWriter: StreamingObjectWriter {
    private let out: OutputBuffer
    private let destination: OpenedOutput
    /// Samples' local times beside their instants (`LocalTimes`); `nil` for none.
    public var localTimes: LocalTimes?

    public init(_ destination: OpenedOutput) {
        self.destination = destination
        out = destination.buffer
    }

    public func begin(_ header: ExportHeader) throws {
        localTimes?.begin(header)
        JSONObjectEncoder.writeHeaderLine(header, to: out, localTimes: localTimes)
        try out.endRecord()
    }

    @inline(__always)
    public func write(_ object: HealthObject) throws {
        JSONObjectEncoder.writeLine(object, to: out, localTimes: localTimes)
        try out.endRecord()
    }

    /// A writer for one chunk of a parallel read: objects go to memory, for `append(_:)`.
    public static func forChunk(localTimes: LocalTimeSetting = .none) -> NDJSONWriter {
        let writer = NDJSONWriter(buffer: OutputBuffer(descriptor: -1, capacity: 1 << 20))
        writer.localTimes = localTimes.makeLocalTimes()
        return writer
    }

    /// Writes what a chunk's writer collected, as if its objects had been written here.
    public func append(_ chunk: NDJSONWriter) throws {
        try out.appendRecords(chunk.out.buffered)
    }

    public func finish() throws {
        try destination.commit()
    }

    public func abandon() {
        destination.abandon()
    }

    private let scratch = OutputBuffer(descriptor: -1, capacity: 64 * 1024)

    /// One object as its NDJSON line (with the line break): what this writer would write.
    public func encode(_ object: HealthObject) throws -> [UInt8] {
        JSONObjectEncoder.writeLine(object, to: scratch, localTimes: localTimes)
        return scratch.takeBytes()
    }
}

/// JSON: one document, streamed (never built in memory):
/// `{"kind":"export",…header…,"objects":[ …objects… ]}`.
public final class JSONDocumentWriter: StreamingObjectWriter {
    private let out: OutputBuffer
    private let destination: OpenedOutput
    /// Samples' local times beside their instants (`LocalTimes`); `nil` for none.
    public var localTimes: LocalTimes?
    @exclusivity(unchecked) private var first = true

    public init(_ destination: OpenedOutput) {
        self.destination = destination
        out = destination.buffer
    }

    public func begin(_ header: ExportHeader) throws {
        localTimes?.begin(header)
        var json = JSONEmitter(out, localTimes: localTimes)
        JSONObjectEncoder.begin("export", to: &json)
        JSONObjectEncoder.write(header: header, to: &json)
        out.append(",\"objects\":[")
        try out.endRecord()
    }

    public func write(_ object: HealthObject) throws {
        if !first { out.append(0x2C) }
        first = false
        out.append(0x0A)
        var json = JSONEmitter(out, localTimes: localTimes)
        JSONObjectEncoder.write(object, to: &json)
        try out.endRecord()
    }

    public func finish() throws {
        out.append("\n]}\n")
        try destination.commit()
    }

    public func abandon() {
        destination.abandon()
    }
}
