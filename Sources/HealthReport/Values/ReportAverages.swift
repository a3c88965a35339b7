import HealthModel

/// The person's weeks (or months, for a long export) at a glance, read from the day table
/// (`healthport days --period`): for each of its columns, the period's average per day with a
/// value, whether the column is a total (steps: the daily average) or a level (resting heart
/// rate: the average), so a row reads as "a typical day of that week".
public struct ReportAverages: Sendable {
    public enum Resolution: String, Sendable {
        case week, month
    }

    public var resolution: Resolution
    /// Indexes into `DayColumn.all`: the columns the data has.
    public var columns: [Int]
    public var rows: [DayPeriodRow]

    public init(resolution: Resolution, columns: [Int], rows: [DayPeriodRow]) {
        self.resolution = resolution
        self.columns = columns
        self.rows = rows
    }
}
