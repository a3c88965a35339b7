import Foundation
import HealthJSON
import HealthModel
import HealthTables

/// Writes one of the summary tables (`healthport summary`, `sleep`, `days`, `workouts`) as a
/// table people read, or as CSV, JSON, NDJSON or Parquet: the columns of `TableRows` in every
/// format but text, so a file and a lake's table hold the same fields. Nights and days are also
/// written as Open mHealth data points (`omh`: `OpenMHealthSummaryEncoder`), one line each.
public final class SummaryTableWriter {
    public enum Format: String, Sendable, CaseIterable {
        case text, csv, json, ndjson, parquet
        /// Open mHealth data points: nights (`sleep`) and days (`days`) only.
        case omh
        /// FHIR R4 Observations: per day and measure, coded by the Physical Activity IG (`days`,
        /// `FHIRDailyObservationEncoder`); per night with its stages as components (`sleep`,
        /// `FHIRNightObservationEncoder`).
        case fhir
    }

    /// The message for `fhir` asked of a table other than the days.
    public static let fhirDaysOnly =
        "FHIR Observations are written per sample, per day (the day table, not its weeks or months) and per night; this table has none"

    /// The message for `omh` asked of a table that has no data points (the daily summary,
    /// workouts, weeks and months).
    public static let omhTablesOnly =
        "Open mHealth data points are written per sample and workout, per day (the day table, not its weeks or months) and per night; this table has none"

    /// Which table (`SummaryTable`, with the columns the store shares).
    public typealias Table = SummaryTable

    private let table: Table
    private let format: Format
    private let opened: OpenedOutput?
    private let csv: CSVWriter?
    private let parquet: ParquetWriter?
    private var rows = 0
    private var omh = OpenMHealthSummaryEncoder()
    private var fhirDays = FHIRDailyObservationEncoder()
    private var fhirNights = FHIRNightObservationEncoder()
    /// The zone the days were cut in: where a day's data points begin and end (`omh`).
    public var timeZone: TimeZone = TimeZone(identifier: "UTC")!

    /// What the data points written left out (`omh`).
    public var omhTally: OpenMHealthTally { omh.tally }

    /// The days' Observations, as FHIR's coding tally (`fhir`): all LOINC, and what was left out.
    public var fhirTally: FHIRCodingTally {
        var tally = FHIRCodingTally()
        tally.add(days: fhirDays, nights: fhirNights)
        return tally
    }

    /// - Parameter byteOrderMark: CSV only: begin with UTF-8's byte-order mark, for
    ///   spreadsheets (`CSVWriter.byteOrderMark`).
    /// - Throws: `OutputError` (no Parquet on standard output; an output that cannot be made).
    public init(
        table: Table, format: Format, to destination: OutputDestination, parquet options: ParquetOptions = ParquetOptions(),
        byteOrderMark: Bool = false
    ) throws {
        self.table = table
        self.format = format
        switch format {
        case .csv:
            let writer: CSVWriter
            switch destination {
            case .standardOutput: writer = CSVWriter(standardOutput: OutputDestination.standardOutputBuffer())
            case .path(let path): writer = CSVWriter(file: try AtomicFile(destination: path))
            }
            writer.byteOrderMark = byteOrderMark
            csv = writer
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
        case .omh:
            switch table {
            case .nights, .days: break
            case .daily, .dayPeriods, .workouts:
                throw OutputError(.invalidRequest, Self.omhTablesOnly, argument: .format)
            }
            opened = try destination.open()
            csv = nil
            parquet = nil
        case .fhir:
            switch table {
            case .days, .nights: break
            case .daily, .dayPeriods, .workouts: throw OutputError(.invalidRequest, Self.fhirDaysOnly, argument: .format)
            }
            opened = try destination.open()
            csv = nil
            parquet = nil
        case .text, .json, .ndjson:
            opened = try destination.open()
            csv = nil
            parquet = nil
        }
    }

    /// Takes whose the rows are, from the header the read passed (after the gate): the FHIR
    /// Observations' `subject` and the Open mHealth points' `user_id` (`FHIRPatient`). Call it
    /// before the first row; without it, they name the Patient that shows no characteristic.
    /// The tables themselves name no one.
    public func begin(_ header: ExportHeader) {
        let patient = FHIRPatient(header)
        fhirDays.patient = patient
        fhirNights.patient = patient
        omh.userID = patient.id
    }

    public func write(_ day: DailySummary) throws { try write(row: day) }

    public func write(_ night: SleepNight) throws {
        if format == .omh || format == .fhir {
            guard let out = opened?.buffer else { return }
            if format == .omh ? omh.write(night, to: out) : fhirNights.write(night, to: out) { rows += 1 }
            try out.endRecord()
            return
        }
        try write(row: night)
    }

    public func write(_ workout: WorkoutSummary) throws { try write(row: workout) }

    /// A day of the day table, with the table's columns.
    public func write(_ day: DayRow) throws {
        guard case .days(let columns) = table else { return }
        if format == .omh || format == .fhir {
            guard let out = opened?.buffer else { return }
            if format == .omh {
                rows += omh.write(day, columns: columns, timeZone: timeZone, to: out)
            } else {
                rows += fhirDays.write(day, columns: columns, to: out)
            }
            try out.endRecord()
            return
        }
        try write(row: DayTableRow(day: day, columns: columns))
    }

    /// A week or a month of the day table, with the table's columns.
    public func write(_ period: DayPeriodRow) throws {
        guard case .dayPeriods(let columns) = table else { return }
        try write(row: DayPeriodTableRow(period: period, columns: columns))
    }

    private func write<Row: SummaryTableRow>(row: Row) throws {
        switch format {
        case .csv:
            try csv?.row(Row.table) { row.cells(into: &$0) }
            rows += 1
        case .parquet:
            try parquet?.row(Row.table) { row.cells(into: &$0) }
            rows += 1
        case .omh, .fhir:
            // Nights and days only, written above; the other tables are refused in `init`.
            return
        case .json, .ndjson:
            guard let out = opened?.buffer else { return }
            if format == .json { out.append(rows == 0 ? "[\n" : ",\n") }
            var builder = JSONRowBuilder(out)
            row.cells(into: &builder)
            builder.end()
            if format == .ndjson { out.append(0x0A) }
            rows += 1
            try out.endRecord()
        case .text:
            guard let out = opened?.buffer else { return }
            // No trailing blanks where the last columns are empty.
            if rows == 0 { out.appendRaw(SummaryText.trimmed(row.textHeader) + "\n") }
            out.appendRaw(SummaryText.trimmed(row.textLine) + "\n")
            rows += 1
            try out.endRecord()
        }
    }

    /// Rows written so far.
    public var rowCount: Int { rows }

    /// Ends the output and puts a file in place. With no rows: a CSV header, a Parquet table
    /// with its columns, a JSON `[]`, nothing otherwise (the face says why there is nothing).
    public func finish() throws {
        switch format {
        case .csv, .parquet:
            if rows == 0 {
                // Any row gives the column names.
                let date = CalendarDate(year: 2000, month: 1, day: 1)
                switch table {
                case .daily: try emptyTable(DailySummary(date: date, type: "", unit: nil, count: 0, sources: []))
                case .nights: try emptyTable(SleepNight.empty(date))
                case .days(let columns): try emptyTable(DayTableRow(day: DayRow(date: date), columns: columns))
                case .dayPeriods(let columns):
                    let none = [Double?](repeating: nil, count: DayColumn.all.count)
                    try emptyTable(
                        DayPeriodTableRow(
                            period: DayPeriodRow(
                                start: date, end: date, days: 0, isPartial: false, totals: none, averages: none,
                                daysWithValue: Array(repeating: 0, count: none.count)), columns: columns))
                case .workouts:
                    let time = ExportTimestamp(secondsSince1970: 0, utcOffsetSeconds: 0)
                    try emptyTable(
                        WorkoutSummary(
                            uuid: ObjectUUID(high: 0, low: 0), date: date, start: time, end: time, activityType: "", activity: "", duration: 0,
                            distance: nil, activeEnergy: nil, averageHeartRate: nil, maximumHeartRate: nil, source: ""))
                }
            }
            try csv?.finish()
            try parquet?.finish()
        case .json:
            guard let opened else { return }
            opened.buffer.append(rows == 0 ? "[]\n" : "\n]\n")
            try opened.commit()
        case .ndjson, .text, .omh, .fhir:
            try opened?.commit()
        }
    }

    private func emptyTable<Row: SummaryTableRow>(_ row: Row) throws {
        try csv?.emptyTable(Row.table) { row.cells(into: &$0) }
        try parquet?.emptyTable(Row.table) { row.cells(into: &$0) }
    }

    public func abandon() {
        csv?.abandon()
        parquet?.abandon()
        opened?.abandon()
    }
}

extension SummaryTableWriter {
    /// Nights as a JSON array, in memory: a page of an answer (the assistant's `sleep_nights`).
    public static func json(_ nights: [SleepNight]) -> [UInt8] { json(nights.map { $0 as any SummaryTableRow }) }

    /// Days of the day table as a JSON array, with the table's columns (the assistant's `days`).
    public static func json(_ days: [DayRow], columns: [Int]) -> [UInt8] {
        json(days.map { DayTableRow(day: $0, columns: columns) as any SummaryTableRow })
    }

    /// Weeks or months of the day table as a JSON array (the assistant's `days` by period).
    public static func json(_ periods: [DayPeriodRow], columns: [Int]) -> [UInt8] {
        json(periods.map { DayPeriodTableRow(period: $0, columns: columns) as any SummaryTableRow })
    }

    private static func json(_ rows: [any SummaryTableRow]) -> [UInt8] {
        let out = OutputBuffer(descriptor: -1)
        out.append("[")
        for (index, row) in rows.enumerated() {
            if index > 0 { out.append(",") }
            var builder = JSONRowBuilder(out)
            row.cells(into: &builder)
            builder.end()
        }
        out.append("]")
        return out.takeBytes()
    }
}
