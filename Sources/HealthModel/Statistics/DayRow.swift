/// One of the person's days with its measures side by side (`healthport days`): a value per
/// `DayColumn`, in `DayColumn.all`'s order, `nil` where the day has none.
///
/// Which columns a table shows is the table's (`DayTable.columns`: those the data has); a row
/// always holds every one, so the store's `days` table and a file made from the same data
/// agree cell for cell.
public struct DayRow: Sendable, Equatable {
    /// The person's local date.
    public var date: CalendarDate
    /// One value per column of `DayColumn.all`, in its unit.
    public var values: [Double?]

    public init(date: CalendarDate, values: [Double?] = Array(repeating: nil, count: DayColumn.all.count)) {
        self.date = date
        self.values = values
    }

    /// The value of the column named `name`.
    public func value(_ name: String) -> Double? {
        guard let index = DayColumn.all.firstIndex(where: { $0.name == name }) else { return nil }
        return values[index]
    }
}

/// The day table: the rows in date order, and the columns the data has (a column only where
/// some day has a value: an export without a scale has no weight column).
public struct DayTable: Sendable, Equatable {
    /// Indexes into `DayColumn.all`, in its order.
    public var columns: [Int]
    public var rows: [DayRow]

    public init(columns: [Int], rows: [DayRow]) {
        self.columns = columns
        self.rows = rows
    }
}

/// A week or a month of the day table (`healthport days --period`): each `.total` column's
/// total and its average per day with a value, each `.average` column's average over the days
/// with a value, and whether the period is whole.
public struct DayPeriodRow: Sendable, Equatable {
    /// The period's first date and the first date after it.
    public var start: CalendarDate
    public var end: CalendarDate
    /// The days of the period inside the table's range (its first to its last date, or the
    /// window's): fewer than the period's length when it is partial.
    public var days: Int
    /// Whether the table's range (or the window) cuts the period: its first or last week or
    /// month, whose figures are not the whole period's.
    public var isPartial: Bool
    /// Per column of `DayColumn.all`: the period's total (`.total` columns; `nil` for
    /// `.average` ones), and the average per day with a value.
    public var totals: [Double?]
    public var averages: [Double?]
    /// Per column: the days with a value.
    public var daysWithValue: [Int]

    public init(
        start: CalendarDate, end: CalendarDate, days: Int, isPartial: Bool, totals: [Double?], averages: [Double?], daysWithValue: [Int]
    ) {
        self.start = start
        self.end = end
        self.days = days
        self.isPartial = isPartial
        self.totals = totals
        self.averages = averages
        self.daysWithValue = daysWithValue
    }
}
