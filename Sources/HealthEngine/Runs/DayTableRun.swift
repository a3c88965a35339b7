import Foundation
import HealthExport
import HealthJSON
import HealthModel
import HealthOutput
import HealthQuery

/// The person's days with their measures side by side (`healthport days`): one row per local
/// day, a column per measure (`DayColumn`: steps, distance, energy, exercise, stand hours, heart
/// rate, HRV, weight, sleep, mindful minutes, workouts, and Apple's rings beside the computed
/// move, exercise and stand), or per week or month with totals and daily averages.
///
/// Every value is the daily summary's (`SummaryRun`: sources merged as the Health app merges
/// them, each category type by its `CategoryDayMeasure`, sleep by its night), so `days` and
/// `summary` cannot disagree; a date window selects whole days and nights.
///
/// For example:
/// ```swift
/// let result = try DayTableRun(input: .export("export.zip")).run()
/// for day in result.table.rows { print(day.date.text, day.value("steps") ?? 0) }
/// ```
public struct DayTableRun: Sendable {
    public var input: ObjectInput
    /// How an export is read: the face's options.
    public var reading = ReadOptions()
    /// Filters and the policy; without types, every type a column reads and Apple's rings.
    public var query: ObjectQuery
    /// The zone, the evening boundary, the source priority.
    public var settings = SummarySettings()
    /// Weeks or months instead of days.
    public var period: DayPeriods.Period?

    public init(input: ObjectInput, query: ObjectQuery = ObjectQuery()) {
        self.input = input
        self.query = query
    }

    public struct Result: Sendable {
        /// The days, with the columns the data has.
        public var table: DayTable
        /// The weeks or months, when a period was asked for.
        public var periods: [DayPeriodRow]
        /// The zone days were cut in.
        public var timeZone: TimeZone
        public var warnings: [RepeatedWarning]
        /// Written as `omh`: the data points per schema, and the day values no schema takes.
        public var omh: OpenMHealthTally? = nil
        /// Written as `fhir`: the Observations, and the day values with no code.
        public var fhir: FHIRCodingTally? = nil
        /// The header as the gate passed it: whose the days are (FHIR's subject, Open
        /// mHealth's `user_id`).
        var header = ExportHeader()
    }

    /// The type Apple's rings are (`ActivitySummary`).
    static let rings = "HKActivitySummaryTypeIdentifier"

    /// Reads the input and makes the table (and its periods).
    public func run(reporter: RunReporter = .silent, cancellation: RunCancellation? = nil) throws(RunError) -> Result {
        try RunError.wrapping { try execute(reporter: reporter, cancellation: cancellation) }
    }

    private func execute(reporter: RunReporter, cancellation: RunCancellation?) throws -> Result {
        var summaryRun = SummaryRun(input: input, query: query)
        summaryRun.reading = reading
        summaryRun.settings = settings
        var read = DayColumn.types.union([Self.rings])
        // Without types named, a policy's undecided types are simply not columns (as the types it
        // denies are not): a table of many types is not refused for one never asked about, where a
        // query naming that type is (HealthKit's not-determined error).
        if query.types == nil, let policy = query.policy { read = read.filter { policy.read[$0] != nil } }
        summaryRun.query.types = query.types.map { $0.intersection(read) } ?? read
        let builder = DayTableBuilder()
        var header = ExportHeader()
        let summary = try summaryRun.execute(
            reporter: reporter, cancellation: cancellation, header: { header = $0 }, daily: builder.add, night: builder.add,
            workout: { _ in })
        for rings in summary.rings { builder.add(rings: rings) }
        let table = builder.table(selection: summary.selection)
        if table.rows.isEmpty {
            reporter.warning(ExportWarning(key: "days-empty", message: "no days to show", location: nil))
        }
        var periods: [DayPeriodRow] = []
        if let period {
            // A window's bounds mark its periods partial; without one, the data's first and
            // last days do.
            periods = DayPeriods.rows(of: table, period: period, first: summary.selection?.first, end: summary.selection?.end)
        }
        return Result(table: table, periods: periods, timeZone: summary.timeZone, warnings: summary.warnings, header: header)
    }

    /// Writes the days (or the periods) to `output` (`-` is standard output) in `format`: what
    /// `healthport days` prints. The output is put in place only when the run succeeds, and may
    /// not replace the input.
    public func write(
        format: SummaryTableWriter.Format, to output: String, parquet: ParquetOptions = ParquetOptions(), byteOrderMark: Bool = false,
        reporter: RunReporter = .silent, cancellation: RunCancellation? = nil
    ) throws(RunError) -> Result {
        try RunError.wrapping {
            let inputPath: String
            switch input {
            case .export(let path), .store(let path): inputPath = path
            }
            try OutputInputGuard.check(outputs: [output], inputs: [inputPath], query: query)
            // Checked before the read: Parquet to standard output is refused at once.
            if format == .parquet, output == "-" {
                throw OutputError(.invalidRequest, ParquetWriter.notOnStandardOutput, argument: .output)
            }
            if format == .omh, period != nil {
                throw OutputError(.invalidRequest, SummaryTableWriter.omhTablesOnly, argument: .format)
            }
            if format == .fhir, period != nil {
                throw OutputError(.invalidRequest, SummaryTableWriter.fhirDaysOnly, argument: .format)
            }
            var result = try execute(reporter: reporter, cancellation: cancellation)
            let table: SummaryTableWriter.Table =
                period == nil ? .days(columns: result.table.columns) : .dayPeriods(columns: result.table.columns)
            let writer = try SummaryTableWriter(
                table: table, format: format, to: OutputDestination(output), parquet: parquet, byteOrderMark: byteOrderMark)
            writer.timeZone = result.timeZone
            writer.begin(result.header)
            do {
                if period == nil {
                    for day in result.table.rows { try writer.write(day) }
                } else {
                    for row in result.periods { try writer.write(row) }
                }
                try writer.finish()
                if format == .omh { result.omh = writer.omhTally }
                if format == .fhir { result.fhir = writer.fhirTally }
            } catch {
                writer.abandon()
                throw error
            }
            return result
        }
    }
}
