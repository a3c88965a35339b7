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

    mutating func string(_ column: String, _ value: String?) {
        guard let value else { return }
        json.key(string: column)
        json.string(value)
    }

    mutating func number(_ column: String, _ value: ExportNumber?) {
        guard let value else { return }
        json.key(string: column)
        json.number(value)
    }

    mutating func int(_ column: String, _ value: Int?) {
        guard let value else { return }
        json.key(string: column)
        json.int(value)
    }

    mutating func date(_ column: String, _ value: ExportTimestamp?) {
        guard let value else { return }
        json.key(string: column)
        json.date(value)
    }

    mutating func localDate(_ column: String, _ value: ExportTimestamp?) {
        guard let value else { return }
        json.key(string: column)
        json.localDate(value)
    }

    mutating func bool(_ column: String, _ value: Bool?) {
        guard let value else { return }
        json.key(string: column)
        json.literal(value ? "true" : "false")
    }

    mutating func date(_ column: String, _ value: ExportTimestamp?, hundredths: Int?) {
        guard let value else { return }
        json.key(string: column)
        if let hundredths { json.date(value, hundredths: hundredths) } else { json.date(value) }
    }

    mutating func uuid(_ column: String, _ value: ObjectUUID?) {
        guard let value else { return }
        json.key(string: column)
        json.uuid(value)
    }

    mutating func day(_ column: String, _ value: CalendarDate?) {
        guard let value else { return }
        json.key(string: column)
        json.string(value.text)
    }

    mutating func json(_ column: String, _ body: ((inout JSONEmitter) -> Void)?) {
        guard let body else { return }
        json.key(string: column)
        body(&json)
    }
}
