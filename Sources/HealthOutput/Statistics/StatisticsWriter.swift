import HealthJSON
import HealthModel

/// Writes a statistics table (`healthport stats`) as text for people (the first column with a
/// bar per interval), CSV (RFC 4180), JSON (one array) or NDJSON, through the same CSV field
/// quoting and JSON string escaping as every other output.
public enum StatisticsWriter {
    public enum Format: String, Sendable, CaseIterable {
        case text, csv, json, ndjson
    }

    /// Writes `table` to `destination`, atomically for a file.
    public static func write(_ table: StatisticsTable, format: Format, to destination: OutputDestination) throws {
        let opened = try destination.open()
        do {
            write(table, format: format, into: opened.buffer)
            try opened.commit()
        } catch {
            opened.abandon()
            throw error
        }
    }

    /// The table's bytes in `format`.
    public static func bytes(_ table: StatisticsTable, format: Format) -> [UInt8] {
        let out = OutputBuffer(descriptor: -1)
        write(table, format: format, into: out)
        return out.takeBytes()
    }

    static func write(_ table: StatisticsTable, format: Format, into out: OutputBuffer) {
        switch format {
        case .csv: writeCSV(table, into: out)
        case .json, .ndjson: writeJSON(table, lines: format == .ndjson, into: out)
        case .text: writeText(table, into: out)
        }
    }

    /// A value as people read it: integers without a fraction, others to nine decimals at most.
    public static func number(_ value: Double?) -> String {
        guard let value else { return "" }
        let rounded = (value * 1e9).rounded() / 1e9
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int64(rounded)) : String(rounded)
    }

    /// A value in the text table a person reads: to two decimals at most (a heart rate of
    /// 97.51, not 97.506666667); CSV and JSON keep nine.
    static func readable(_ value: Double?) -> String {
        guard let value else { return "" }
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int64(rounded)) : String(rounded)
    }

    private static func field(_ text: String, into out: OutputBuffer) {
        var text = text
        text.withUTF8 { CSVRow.appendField(UnsafeRawBufferPointer($0), to: out) }
    }

    private static func writeCSV(_ table: StatisticsTable, into out: OutputBuffer) {
        out.appendRaw((["startDate", "endDate"] + (table.isSeparatedBySource ? ["source"] : []) + table.columns + ["unit"]).joined(separator: ","))
        out.append("\r\n")
        for row in table.rows {
            out.appendRaw(row.start.iso8601 + "," + row.end.iso8601)
            if table.isSeparatedBySource {
                out.append(0x2C)
                field(row.source ?? "", into: out)
            }
            for value in row.values { out.appendRaw("," + number(value)) }
            out.append(0x2C)
            field(table.unit, into: out)
            out.append("\r\n")
        }
    }

    private static func writeJSON(_ table: StatisticsTable, lines: Bool, into out: OutputBuffer) {
        if !lines { out.append("[\n") }
        for (index, row) in table.rows.enumerated() {
            if !lines && index > 0 { out.append(",\n") }
            var json = JSONEmitter(out)
            json.beginObject()
            json.key("startDate")
            json.string(row.start.iso8601)
            json.key("endDate")
            json.string(row.end.iso8601)
            if table.isSeparatedBySource {
                json.key("source")
                if let source = row.source { json.string(source) } else { json.null() }
            }
            for (name, value) in zip(table.columns, row.values) {
                json.key(string: name)
                if let value { json.raw(number(value)) } else { json.null() }
            }
            json.key("unit")
            json.string(table.unit)
            json.endObject()
            if lines { out.append(0x0A) }
        }
        if !lines { out.append("\n]\n") }
    }

    /// A table for people: the interval's start, every column asked for, and a bar for the
    /// first; with sources separated, each source's row (indented, by name) below its interval.
    /// One column keeps the compact header `START  SUM (count)`.
    private static func writeText(_ table: StatisticsTable, into out: OutputBuffer) {
        guard let first = table.columns.first else { return }
        func padded(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(0, width - text.count)) + text
        }
        let dateWidth = 25
        if table.columns.count == 1 {
            out.appendRaw("START" + String(repeating: " ", count: dateWidth - 5 + 2) + "\(first.uppercased()) (\(table.unit))\n")
        } else {
            let names = table.columns.map { "  " + padded($0.uppercased(), 12) }.joined()
            out.appendRaw("START" + String(repeating: " ", count: dateWidth - 5) + names + "  (\(table.unit))\n")
        }
        let top = table.rows.filter { $0.source == nil }.compactMap { $0.values.first.flatMap { $0 } }.max() ?? 0
        for row in table.rows {
            let values = row.values.map { "  " + padded(readable($0 ?? (row.source == nil ? 0 : nil)), 12) }.joined()
            if let source = row.source {
                let name = source.count > dateWidth - 2 ? String(source.prefix(dateWidth - 3)) + "…" : source
                out.appendRaw("  " + name + String(repeating: " ", count: max(0, dateWidth - 2 - name.count)) + values + "\n")
            } else {
                let value = row.values.first.flatMap { $0 } ?? 0
                let bar = top > 0 ? String(repeating: "█", count: Int((value / top * 40).rounded())) : ""
                out.appendRaw(row.start.iso8601 + values + "  " + bar + "\n")
            }
        }
    }
}
