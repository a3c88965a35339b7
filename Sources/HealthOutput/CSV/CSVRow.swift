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

    /// One cell: in header mode its column's name, otherwise its value as `write` lays it out.
    @inline(__always)
    private mutating func cell<Value>(_ column: String, _ value: Value, _ write: (inout CSVRow, Value) -> Void) {
        if writesColumnNames { string(column) } else { write(&self, value) }
    }

    @inline(__always)
    mutating func string(_ column: String, _ value: String?) { cell(column, value) { $0.string($1) } }

    @inline(__always)
    mutating func number(_ column: String, _ value: ExportNumber?) { cell(column, value) { $0.number($1) } }

    @inline(__always)
    mutating func int(_ column: String, _ value: Int?) { cell(column, value) { $0.int($1) } }

    mutating func bool(_ column: String, _ value: Bool?) { cell(column, value) { $0.bool($1) } }

    @inline(__always)
    mutating func date(_ column: String, _ value: ExportTimestamp?) { cell(column, value) { $0.date($1) } }

    @inline(__always)
    mutating func localDate(_ column: String, _ value: ExportTimestamp?) { cell(column, value) { $0.localDate($1) } }

    mutating func date(_ column: String, _ value: ExportTimestamp?, hundredths: Int?) {
        cell(column, (value, hundredths)) { $0.date($1.0, hundredths: $1.1) }
    }

    @inline(__always)
    mutating func uuid(_ column: String, _ value: ObjectUUID?) { cell(column, value) { $0.uuid($1) } }

    @inline(__always)
    mutating func day(_ column: String, _ value: CalendarDate?) { cell(column, value) { $0.string($1?.text) } }

    @inline(__always)
    mutating func json(_ column: String, _ body: ((inout JSONEmitter) -> Void)?) {
        cell(column, body) { row, body in
            if let body { row.json(body) } else { row.empty() }
        }
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

    mutating func bool(_ value: Bool?) {
        separator()
        guard let value else { return }
        if value { out.append("true") } else { out.append("false") }
    }

    mutating func date(_ value: ExportTimestamp?) {
        separator()
        guard let value else { return }
        out.appendISO8601(value)
    }

    mutating func localDate(_ value: ExportTimestamp?) {
        separator()
        guard let value else { return }
        out.appendLocalDateTime(value)
    }

    /// With hundredths, `2020-12-06T11:26:02.34-08:00`, as NDJSON writes it; without, the date.
    mutating func date(_ value: ExportTimestamp?, hundredths: Int?) {
        guard let value, let hundredths else { return date(value) }
        separator()
        out.appendISO8601(value, hundredths: hundredths)
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
