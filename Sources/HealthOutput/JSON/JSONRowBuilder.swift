import HealthJSON
import HealthModel
import HealthTables

/// A table row as one JSON object, member per column, from the same row functions as CSV and
/// Parquet (`TableRows`): so a table's JSON and NDJSON name and type their fields as its
/// columns do. Empty cells are left out; JSON cells (`sources`) are written as JSON.
struct JSONRowBuilder: TableRowBuilder {
    var json: JSONEmitter

    init(_ out: OutputBuffer) {
        json = JSONEmitter(out)
        json.beginObject()
    }

    mutating func end() { json.endObject() }

    /// Every cell is written alike: nothing when it is empty, else its column as the key and
    /// the value as `write` writes it. Only how each type's value is written differs.
    @inline(__always)
    private mutating func member<Value>(_ column: String, _ value: Value?, _ write: (inout JSONEmitter, Value) -> Void) {
        guard let value else { return }
        json.key(string: column)
        write(&json, value)
    }

    mutating func string(_ column: String, _ value: String?) {
        member(column, value) { $0.string($1) }
    }

    mutating func number(_ column: String, _ value: ExportNumber?) {
        member(column, value) { $0.number($1) }
    }

    mutating func int(_ column: String, _ value: Int?) {
        member(column, value) { $0.int($1) }
    }

    mutating func date(_ column: String, _ value: ExportTimestamp?) {
        member(column, value) { $0.date($1) }
    }

    mutating func localDate(_ column: String, _ value: ExportTimestamp?) {
        member(column, value) { $0.localDate($1) }
    }

    mutating func bool(_ column: String, _ value: Bool?) {
        member(column, value) { $0.literal($1 ? "true" : "false") }
    }

    mutating func date(_ column: String, _ value: ExportTimestamp?, hundredths: Int?) {
        member(column, value) { json, value in
            if let hundredths { json.date(value, hundredths: hundredths) } else { json.date(value) }
        }
    }

    mutating func uuid(_ column: String, _ value: ObjectUUID?) {
        member(column, value) { $0.uuid($1) }
    }

    mutating func day(_ column: String, _ value: CalendarDate?) {
        member(column, value) { $0.string($1.text) }
    }

    mutating func json(_ column: String, _ body: ((inout JSONEmitter) -> Void)?) {
        member(column, body) { json, body in body(&json) }
    }
}
