import HealthJSON
import HealthModel
import HealthTables

/// Appends one RFC 4180 record: fields separated by commas, quoted when they hold a comma,
/// a quote, CR or LF (quotes doubled), ended by CRLF as RFC 4180 §2 says.
///
/// As a `TableRowBuilder` it writes a table's row from `TableRows`; made with
/// `writesColumnNames`, the same calls write the table's header row (the columns' names)
/// instead, so the header cannot drift from the rows.
struct CSVRow: TableRowBuilder {
    let out: OutputBuffer
    let scratch: OutputBuffer
    private var first = true
    /// Writes each cell's column name instead of its value: the header row.
    private let writesColumnNames: Bool

    init(_ out: OutputBuffer, scratch: OutputBuffer, writesColumnNames: Bool = false) {
        self.out = out
        self.scratch = scratch
        self.writesColumnNames = writesColumnNames
    }

    // MARK: TableRowBuilder

    /// In header mode, writes the name and tells the cell not to write its value.
    @inline(__always)
    private mutating func wroteName(_ column: String) -> Bool {
        guard writesColumnNames else { return false }
        string(column)
        return true
    }

    @inline(__always)
    mutating func string(_ column: String, _ value: String?) {
        if wroteName(column) { return }
        string(value)
    }

    @inline(__always)
    mutating func number(_ column: String, _ value: ExportNumber?) {
        if wroteName(column) { return }
        number(value)
    }

    @inline(__always)
    mutating func int(_ column: String, _ value: Int?) {
        if wroteName(column) { return }
        int(value)
    }

    mutating func bool(_ column: String, _ value: Bool?) {
        if wroteName(column) { return }
        separator()
        guard let value else { return }
        if value { out.append("true") } else { out.append("false") }
    }

    @inline(__always)
    mutating func date(_ column: String, _ value: ExportTimestamp?) {
        if wroteName(column) { return }
        date(value)
    }

    @inline(__always)
    mutating func localDate(_ column: String, _ value: ExportTimestamp?) {
        if wroteName(column) { return }
        separator()
        guard let value else { return }
        out.appendLocalDateTime(value)
    }

    mutating func date(_ column: String, _ value: ExportTimestamp?, hundredths: Int?) {
        if wroteName(column) { return }
        guard let value, let hundredths else { return date(value) }
        separator()
        // `2020-12-06T11:26:02.34-08:00`, as NDJSON writes it.
        var bytes = [UInt8](repeating: 0, count: ExportTimestamp.iso8601Length)
        bytes.withUnsafeMutableBufferPointer { value.formatISO8601(into: $0.baseAddress!) }
        out.append(contentsOf: Array(bytes[0..<19]))
        out.append(0x2E)
        out.append(UInt8(48 + (hundredths / 10) % 10))
        out.append(UInt8(48 + hundredths % 10))
        out.append(contentsOf: Array(bytes[19...]))
    }

    @inline(__always)
    mutating func uuid(_ column: String, _ value: ObjectUUID?) {
        if wroteName(column) { return }
        uuid(value)
    }

    @inline(__always)
    mutating func day(_ column: String, _ value: CalendarDate?) {
        if wroteName(column) { return }
        string(value?.text)
    }

    @inline(__always)
    mutating func json(_ column: String, _ body: ((inout JSONEmitter) -> Void)?) {
        if wroteName(column) { return }
        if let body { json(body) } else { empty() }
    }

    // MARK: Fields

    @inline(__always)
    private mutating func separator() {
        if !first { out.append(0x2C) }
        first = false
    }

    mutating func empty() {
        separator()
    }

    mutating func string(_ value: String?) {
        separator()
        guard let value else { return }
        var copy = value
        copy.withUTF8 { Self.appendField(UnsafeRawBufferPointer($0), to: out) }
    }

    mutating func literal(_ value: StaticString) {
        separator()
        out.append(value)
    }

    mutating func number(_ value: ExportNumber?) {
        separator()
        if let value { out.appendRaw(value.text) }
    }

    mutating func int(_ value: Int?) {
        separator()
        if let value { out.append(int: value) }
    }

    mutating func date(_ value: ExportTimestamp?) {
        separator()
        guard let value else { return }
        out.appendISO8601(value)
    }

    mutating func uuid(_ value: ObjectUUID?) {
        separator()
        guard let value else { return }
        let p = out.reserve(ObjectUUID.textLength)
        value.format(into: p)
        out.advance(by: ObjectUUID.textLength)
    }

    /// A field holding JSON written by `body` (metadata, extensions), quoted as CSV requires.
    mutating func json(_ body: (inout JSONEmitter) -> Void) {
        separator()
        scratch.discard()
        var emitter = JSONEmitter(scratch)
        body(&emitter)
        guard scratch.count > 0 else { return }
        let p = scratch.reserve(0)
        Self.appendField(UnsafeRawBufferPointer(start: p - scratch.count, count: scratch.count), to: out)
        scratch.discard()
    }

    mutating func end() {
        out.append(0x0D)
        out.append(0x0A)
    }

    static func appendField(_ bytes: UnsafeRawBufferPointer, to out: OutputBuffer) {
        var needsQuotes = false
        for b in bytes where b == 0x2C || b == 0x22 || b == 0x0A || b == 0x0D {
            needsQuotes = true
            break
        }
        if !needsQuotes {
            out.append(bytes)
            return
        }
        out.append(0x22)
        for b in bytes {
            if b == 0x22 { out.append(0x22) }
            out.append(b)
        }
        out.append(0x22)
    }
}
