/// Statistics per interval as a table, ready to write: the columns asked for (`sum`,
/// `average`, `minimum`, `maximum`, `mostRecent`, `duration`), one row per interval (the
/// sources merged), each followed by one row per source when the statistics are separated by
/// source (HealthKit: `HKStatisticsCollection`, `separateBySource`).
public struct StatisticsTable: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
        /// The interval, in the statistics' time zone.
        public var start: ExportTimestamp
        public var end: ExportTimestamp
        /// `nil` for the merged row; the source's name for its own row.
        public var source: String?
        /// One value per column, in the output unit; `nil` when there is none.
        public var values: [Double?]

        public init(start: ExportTimestamp, end: ExportTimestamp, source: String?, values: [Double?]) {
            self.start = start
            self.end = end
            self.source = source
            self.values = values
        }
    }

    public var columns: [String]
    public var unit: String
    /// Whether rows per source follow each merged row (and tables show a `source` column).
    public var isSeparatedBySource: Bool
    public var rows: [Row]

    public init(columns: [String], unit: String, isSeparatedBySource: Bool, rows: [Row]) {
        self.columns = columns
        self.unit = unit
        self.isSeparatedBySource = isSeparatedBySource
        self.rows = rows
    }
}
