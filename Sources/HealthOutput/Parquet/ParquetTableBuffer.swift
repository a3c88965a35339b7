import HealthJSON
import HealthModel
import HealthTables

/// One table's Parquet file and the rows of its row group being collected. The columns come
/// from the first row's cells (`TableRows` gives every row of a table the same cells), so the
/// schema is the CSV table's, typed.
final class ParquetTableBuffer {
    let file: ParquetFileWriter
    // One thread at a time (see `ParquetColumnBuffer`): no dynamic exclusivity checks.
    @exclusivity(unchecked) private(set) var columns: [ParquetColumnBuffer] = []
    /// Rows collected since the last row group.
    @exclusivity(unchecked) private(set) var rowCount = 0
    /// JSON cells are written here, then taken as text.
    let scratch = OutputBuffer(descriptor: -1, capacity: 1024)
    /// Rows only declare the columns (an empty table's schema): no value is kept.
    var declaresColumnsOnly = false

    init(file: ParquetFileWriter) {
        self.file = file
    }

    /// What the collected rows hold in memory, roughly.
    var memoryBytes: Int { columns.reduce(0) { $0 + $1.memoryBytes } }

    /// The column at `index` of the row being built, made on the first row.
    @inline(__always)
    func column(_ index: Int, _ name: @autoclosure () -> String, _ type: ParquetColumnType) -> ParquetColumnBuffer {
        if index < columns.count { return columns[index] }
        let column = ParquetColumnBuffer(name: name(), type: type)
        columns.append(column)
        return column
    }

    /// Ends the row being built.
    @inline(__always)
    func endRow() {
        if !declaresColumnsOnly { rowCount += 1 }
    }

    /// Writes the collected rows as a row group.
    func flushRowGroup() throws {
        guard rowCount > 0 else { return }
        try file.writeRowGroup(columns)
        rowCount = 0
    }

    /// Writes the last row group and the footer (with the columns even when no row came).
    func finish() throws {
        try flushRowGroup()
        file.declareColumns(columns)
        try file.finish()
    }
}

/// A table row as Parquet columns: each `TableRowBuilder` cell appends to its column, a date
/// to two (the instant as `TIMESTAMP(MICROS, UTC)` and `<name>_utcOffset`, the offset it was
/// printed with, in seconds, so the local time is exact).
struct ParquetRow: TableRowBuilder {
    unowned let table: ParquetTableBuffer
    private var index = 0

    init(_ table: ParquetTableBuffer) {
        self.table = table
    }

    /// The column at the next index; `nil` when the row only declares its columns.
    @inline(__always)
    /// The name is made only for the first row (`<date>_utcOffset` would otherwise be a string
    /// concatenation per date cell).
    private mutating func next(_ name: @autoclosure () -> String, _ type: ParquetColumnType) -> ParquetColumnBuffer? {
        let column = table.column(index, name(), type)
        index += 1
        return table.declaresColumnsOnly ? nil : column
    }

    mutating func string(_ column: String, _ value: String?) {
        guard let buffer = next(column, .string) else { return }
        if let value { buffer.append(string: value) } else { buffer.appendNull() }
    }

    mutating func number(_ column: String, _ value: ExportNumber?) {
        guard let buffer = next(column, .double) else { return }
        if let value { buffer.append(double: value.value) } else { buffer.appendNull() }
    }

    mutating func int(_ column: String, _ value: Int?) {
        guard let buffer = next(column, .int64) else { return }
        if let value { buffer.append(int64: Int64(value)) } else { buffer.appendNull() }
    }

    mutating func bool(_ column: String, _ value: Bool?) {
        guard let buffer = next(column, .boolean) else { return }
        if let value { buffer.append(bool: value) } else { buffer.appendNull() }
    }

    /// The instant in microseconds and its offset: `date(_:_:hundredths:)` without hundredths.
    mutating func date(_ column: String, _ value: ExportTimestamp?) {
        date(column, value, hundredths: nil)
    }

    /// The wall clock in microseconds, as if it were UTC: how Parquet keeps a local time.
    mutating func localDate(_ column: String, _ value: ExportTimestamp?) {
        guard let buffer = next(column, .localTimestamp) else { return }
        if let value {
            buffer.append(int64: (value.secondsSince1970 &+ Int64(value.utcOffsetSeconds)) &* 1_000_000)
        } else {
            buffer.appendNull()
        }
    }

    mutating func day(_ column: String, _ value: CalendarDate?) {
        guard let buffer = next(column, .day) else { return }
        if let value {
            buffer.append(int32: Int32(CalendarDate.daysFromCivil(year: value.year, month: value.month, day: value.day)))
        } else {
            buffer.appendNull()
        }
    }

    /// The instant in microseconds with its hundredths added; the offset column as for any date.
    mutating func date(_ column: String, _ value: ExportTimestamp?, hundredths: Int?) {
        let instantColumn = next(column, .timestamp)
        let offsetColumn = next(column + "_utcOffset", .utcOffset)
        guard let instant = instantColumn, let offset = offsetColumn else { return }
        if let value {
            instant.append(int64: value.secondsSince1970 &* 1_000_000 &+ Int64(hundredths ?? 0) &* 10_000)
            offset.append(int32: value.utcOffsetSeconds)
        } else {
            instant.appendNull()
            offset.appendNull()
        }
    }

    mutating func uuid(_ column: String, _ value: ObjectUUID?) {
        guard let buffer = next(column, .uuid) else { return }
        if let value { buffer.append(uuid: value) } else { buffer.appendNull() }
    }

    mutating func json(_ column: String, _ body: ((inout JSONEmitter) -> Void)?) {
        guard let buffer = next(column, .json) else { return }
        guard let body else {
            buffer.appendNull()
            return
        }
        let scratch = table.scratch
        var emitter = JSONEmitter(scratch)
        body(&emitter)
        let text = String(decoding: scratch.buffered, as: UTF8.self)
        scratch.discard()
        buffer.append(string: text)
    }
}
