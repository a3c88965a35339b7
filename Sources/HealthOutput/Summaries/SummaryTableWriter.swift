import HealthJSON
import HealthModel

/// Writes the daily summary or the sleep nights (`healthport summary`, `healthport sleep`) as a
/// table people read, or as CSV, JSON, NDJSON or Parquet: the columns of `TableRows` in every
/// format but text, so a file and a lake's table hold the same fields.
public final class SummaryTableWriter {
    public enum Format: String, Sendable, CaseIterable {
        case text, csv, json, ndjson, parquet
    }

    public enum Table: Sendable {
        case daily, nights

        var outputTable: OutputTable { self == .daily ? .dailySummary : .sleepNights }
    }

    private let table: Table
    private let format: Format
    private let opened: OpenedOutput?
    private let csv: CSVWriter?
    private let parquet: ParquetWriter?
    private var rows = 0

    /// - Throws: `OutputError` (no Parquet on standard output; an output that cannot be made).
    public init(table: Table, format: Format, to destination: OutputDestination, parquet options: ParquetOptions = ParquetOptions()) throws {
        self.table = table
        self.format = format
        switch format {
        case .csv:
            switch destination {
            case .standardOutput: csv = CSVWriter(standardOutput: OutputDestination.standardOutputBuffer())
            case .path(let path): csv = CSVWriter(file: try AtomicFile(destination: path))
            }
            opened = nil
            parquet = nil
        case .parquet:
            guard case .path(let path) = destination else {
                throw OutputError(.invalidRequest, ParquetWriter.notOnStandardOutput, argument: .output)
            }
            parquet =
                ParquetWriter.isSingleFile(path)
                ? ParquetWriter(file: try AtomicFile(destination: path), options: options) : try ParquetWriter(folder: path, options: options)
            opened = nil
            csv = nil
        case .text, .json, .ndjson:
            opened = try destination.open()
            csv = nil
            parquet = nil
        }
    }

    public func write(_ day: DailySummary) throws {
        switch format {
        case .csv:
            try csv?.row(.dailySummary) { TableRows.dailySummary(day, into: &$0) }
            rows += 1
        case .parquet:
            try parquet?.row(.dailySummary) { TableRows.dailySummary(day, into: &$0) }
            rows += 1
        case .json, .ndjson:
            try json { TableRows.dailySummary(day, into: &$0) }
        case .text:
            try text(SummaryText.header(.daily), SummaryText.line(day))
        }
    }

    public func write(_ night: SleepNight) throws {
        switch format {
        case .csv:
            try csv?.row(.sleepNights) { TableRows.sleepNight(night, into: &$0) }
            rows += 1
        case .parquet:
            try parquet?.row(.sleepNights) { TableRows.sleepNight(night, into: &$0) }
            rows += 1
        case .json, .ndjson:
            try json { TableRows.sleepNight(night, into: &$0) }
        case .text:
            try text(SummaryText.header(.nights), SummaryText.line(night))
        }
    }

    private func json(_ body: (inout JSONRowBuilder) -> Void) throws {
        guard let out = opened?.buffer else { return }
        if format == .json { out.append(rows == 0 ? "[\n" : ",\n") }
        var row = JSONRowBuilder(out)
        body(&row)
        row.end()
        if format == .ndjson { out.append(0x0A) }
        rows += 1
        try out.endRecord()
    }

    private func text(_ header: String, _ line: String) throws {
        guard let out = opened?.buffer else { return }
        if rows == 0 { out.appendRaw(header + "\n") }
        out.appendRaw(line + "\n")
        rows += 1
        try out.endRecord()
    }

    /// Rows written so far.
    public var rowCount: Int { rows }

    /// Ends the output and puts a file in place. With no rows: a CSV header, a JSON `[]`,
    /// nothing otherwise (the face says why there is nothing).
    public func finish() throws {
        switch format {
        case .csv:
            if rows == 0 {
                // Any row gives the column names.
                let date = CalendarDate(year: 2000, month: 1, day: 1)
                switch table {
                case .daily:
                    try csv?.emptyTable(.dailySummary) {
                        TableRows.dailySummary(DailySummary(date: date, type: "", unit: nil, count: 0, sources: []), into: &$0)
                    }
                case .nights:
                    try csv?.emptyTable(.sleepNights) {
                        TableRows.sleepNight(
                            SleepNight(
                                night: date, inBed: nil, asleepUnspecified: 0, asleepCore: 0, asleepDeep: 0, asleepREM: 0, awake: 0,
                                sleepStart: nil, sleepEnd: nil, sources: []), into: &$0)
                    }
                }
            }
            try csv?.finish()
        case .parquet:
            try parquet?.finish()
        case .json:
            guard let opened else { return }
            opened.buffer.append(rows == 0 ? "[]\n" : "\n]\n")
            try opened.commit()
        case .ndjson, .text:
            try opened?.commit()
        }
    }

    public func abandon() {
        csv?.abandon()
        parquet?.abandon()
        opened?.abandon()
    }
}

extension SummaryTableWriter {
    /// Nights as a JSON array, in memory: a page of an answer (the assistant's `sleep_nights`).
    public static func json(_ nights: [SleepNight]) -> [UInt8] {
        let out = OutputBuffer(descriptor: -1)
        out.append("[")
        for (index, night) in nights.enumerated() {
            if index > 0 { out.append(",") }
            var row = JSONRowBuilder(out)
            TableRows.sleepNight(night, into: &row)
            row.end()
        }
        out.append("]")
        return out.takeBytes()
    }
}
