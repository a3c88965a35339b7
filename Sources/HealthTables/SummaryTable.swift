/// The summary tables healthport writes and the store keeps: each one's rows come from
/// `SummaryTableRows`, and its columns from the same function (`SummaryTableCells.columns`).
public enum SummaryTable: Sendable, Equatable {
    /// One row per type and day (`DailySummary`).
    case daily
    /// One row per night (`SleepNight`).
    case nights
    /// One row per day, its measures side by side (`DayRow`), with these columns of
    /// `DayColumn.all`.
    case days(columns: [Int])
    /// One row per week or month of the day table.
    case dayPeriods(columns: [Int])
    /// One row per workout (`WorkoutSummary`).
    case workouts
}
