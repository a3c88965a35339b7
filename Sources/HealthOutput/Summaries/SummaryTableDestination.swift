import HealthModel
import HealthTables

/// A writer of a folder of tables that can also hold the summary tables (`daily-summary`,
/// `sleep-nights`, `days`, `workout-summary`) beside the objects' tables: a conversion with
/// `--summaries` writes them into the same staged folder, so the folder appears whole or not
/// at all. FHIR's Bulk Data folder holds the days and nights as Observations.
public protocol SummaryTableDestination: AnyObject {
    func write(_ day: DailySummary) throws
    func write(_ night: SleepNight) throws
    func write(_ workout: WorkoutSummary) throws
    /// A day of the day table, with the columns the table shows (`DayTable.columns`).
    func write(_ day: DayRow, columns: [Int]) throws
}

extension CSVWriter: SummaryTableDestination {
    public func write(_ day: DailySummary) throws { try row(.dailySummary) { SummaryTableRows.dailySummary(day, into: &$0) } }
    public func write(_ night: SleepNight) throws { try row(.sleepNights) { SummaryTableRows.sleepNight(night, into: &$0) } }
    public func write(_ workout: WorkoutSummary) throws { try row(.workoutSummary) { SummaryTableRows.workoutSummary(workout, into: &$0) } }
    public func write(_ day: DayRow, columns: [Int]) throws { try row(.days) { SummaryTableRows.day(day, columns: columns, into: &$0) } }
}

extension ParquetWriter: SummaryTableDestination {
    public func write(_ day: DailySummary) throws { try row(.dailySummary) { SummaryTableRows.dailySummary(day, into: &$0) } }
    public func write(_ night: SleepNight) throws { try row(.sleepNights) { SummaryTableRows.sleepNight(night, into: &$0) } }
    public func write(_ workout: WorkoutSummary) throws { try row(.workoutSummary) { SummaryTableRows.workoutSummary(workout, into: &$0) } }
    public func write(_ day: DayRow, columns: [Int]) throws { try row(.days) { SummaryTableRows.day(day, columns: columns, into: &$0) } }
}

/// FHIR holds the day table's days and the nights, as the daily and nightly Observations of
/// `days` and `sleep --format fhir`; the daily summary (a type's day, which the day table
/// already carries for the measures FHIR codes) and the workouts' summaries (each workout is
/// already an Observation) have no FHIR form of their own and are not written.
extension FHIRBulkWriter: SummaryTableDestination {
    public func write(_ day: DailySummary) throws {}
    public func write(_ night: SleepNight) throws { try write(night: night) }
    public func write(_ workout: WorkoutSummary) throws {}
    public func write(_ day: DayRow, columns: [Int]) throws { try write(day: day, columns: columns) }
}
