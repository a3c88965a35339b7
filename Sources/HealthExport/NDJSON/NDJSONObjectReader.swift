import HealthJSON
import HealthModel

/// Reads healthport's own NDJSON back (`healthport-formats(5)`): an optional header line
/// (`"kind":"export"`), then one object per line, so that a pipeline can convert, edit with
/// `jq`, and feed the result to any command. Objects keep the uuids written in them.
///
/// Memory holds one chunk and one line. A line that is not valid JSON or does not fit the schema
/// is an error located at its line (and, for JSON syntax, its column).
struct NDJSONObjectReader {
    /// A line longer than this is refused rather than buffered (the largest object, a workout
    /// with its route, is a few MB).
    static let maximumLineLength = 64 << 20

    let location: SourceLocation
    let types: Set<String>?
    private var pending: [UInt8] = []
    private var lineNumber = 0
    private(set) var header = ExportHeader()
    private var begun = false
    private(set) var objectCount = 0

    init(location: SourceLocation, types: Set<String>?) {
        self.location = location
        self.types = types
    }

    /// Whether the first bytes are healthport NDJSON: after white space, an object whose first
    /// member is `"kind"` (the header, or an object line when a filter dropped the header).
    static func recognizes(_ prefix: [UInt8]) -> Bool {
        var i = 0
        while i < prefix.count, prefix[i] == 0x20 || prefix[i] == 0x0A || prefix[i] == 0x0D || prefix[i] == 0x09 { i += 1 }
        let start = Array(#"{"kind":"#.utf8)
        return prefix.count - i >= start.count && Array(prefix[i..<(i + start.count)]) == start
    }

    /// Feeds a chunk; complete lines go to the sink.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, into sink: any ObjectSink) throws {
        var start = 0
        for i in 0..<chunk.count where chunk[i] == 0x0A {
            if pending.isEmpty {
                try line(UnsafeRawBufferPointer(rebasing: chunk[start..<i]), into: sink)
            } else {
                pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[start..<i]))
                let complete = pending
                pending.removeAll(keepingCapacity: true)
                try complete.withUnsafeBytes { try line($0, into: sink) }
            }
            start = i + 1
        }
        if start < chunk.count {
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[start...]))
            if pending.count > Self.maximumLineLength {
                throw ExportError(
                    .limitExceeded, "a line longer than \(Self.maximumLineLength >> 20) MiB",
                    at: location.with(line: lineNumber + 1, column: nil))
            }
        }
    }

    /// After the last chunk: the last line, if it has no newline, and the header if there was
    /// nothing at all.
    mutating func finish(into sink: any ObjectSink) throws {
        if !pending.isEmpty {
            let last = pending
            pending = []
            try last.withUnsafeBytes { try line($0, into: sink) }
        }
        if !begun {
            begun = true
            try sink.exportDidBegin(header)
        }
    }

    private mutating func line(_ bytes: UnsafeRawBufferPointer, into sink: any ObjectSink) throws {
        lineNumber += 1
        var end = bytes.count
        if end > 0 && bytes[end - 1] == 0x0D { end -= 1 }
        let text = UnsafeRawBufferPointer(rebasing: bytes[0..<end])
        if text.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        let value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            throw ExportError(.malformedJSON, "invalid JSON: \(error.message)", at: location.with(line: lineNumber, column: error.offset + 1))
        }
        do {
            if value["kind"]?.stringValue == "export" {
                guard !begun else { throw ObjectDecoder.SchemaError("a second export header") }
                header = try ObjectDecoder.decodeHeader(value)
                begun = true
                try sink.exportDidBegin(header)
                return
            }
            let object = try ObjectDecoder.decode(value)
            if !begun {
                begun = true
                try sink.exportDidBegin(header)
            }
            if let types, !types.contains(object.objectType.identifier) { return }
            objectCount += 1
            try sink.consume(object)
        } catch let error as ObjectDecoder.SchemaError {
            throw ExportError(.malformedJSON, "not a healthport object: \(error.message)", at: location.with(line: lineNumber, column: 1))
        }
    }
}
