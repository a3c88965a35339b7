import HealthModel

/// Weeks or months of the day table (`healthport days --period`): each total's sum and its
/// average per day, each average's mean, and which periods the data only partly covers.
///
/// **Averages are over the days with a value.** A week's daily steps are its steps over the
/// days that counted any (a day the phone stayed in a drawer is not a day of zero steps); its
/// resting heart rate the mean of its days' values; a night's sleep the mean of its nights.
/// Each average says how many days it is over (`DayPeriodRow.daysWithValue`).
///
/// **Partial periods are marked, never hidden.** The range is the table's first to last date
/// (or the window's, when one was given): a week that begins before it or ends after it is
/// partial (`isPartial`, with the `days` inside the range), so the last "week" of a range that
/// ends on a Monday says it is one day.
///
/// Weeks begin on Mondays (ISO 8601); months are calendar months.
public enum DayPeriods {
    public enum Period: String, Sendable, CaseIterable {
        case week, month
    }

    /// The periods covering `table`'s rows, in order.
    ///
    /// - Parameters:
    ///   - first: the range's first date (days since 1970); `nil`: the first row's.
    ///   - end: the first date after the range; `nil`: the day after the last row.
    public static func rows(of table: DayTable, period: Period, first: Int? = nil, end: Int? = nil) -> [DayPeriodRow] {
        guard let firstRow = table.rows.first, let lastRow = table.rows.last else { return [] }
        let rangeStart = first ?? number(firstRow.date)
        let rangeEnd = end ?? (number(lastRow.date) + 1)
        guard rangeEnd > rangeStart else { return [] }
        var result: [DayPeriodRow] = []
        var rowIndex = 0
        var periodStart = start(of: rangeStart, period)
        let count = DayColumn.all.count
        while periodStart < rangeEnd {
            let periodEnd = next(after: periodStart, period)
            var totals = [Double?](repeating: nil, count: count)
            var days = [Int](repeating: 0, count: count)
            while rowIndex < table.rows.count && number(table.rows[rowIndex].date) < periodEnd {
                let row = table.rows[rowIndex]
                if number(row.date) >= periodStart {
                    for (index, value) in row.values.enumerated() {
                        guard let value else { continue }
                        totals[index] = (totals[index] ?? 0) + value
                        days[index] += 1
                    }
                }
                rowIndex += 1
            }
            let inside = min(periodEnd, rangeEnd) - max(periodStart, rangeStart)
            var averages = [Double?](repeating: nil, count: count)
            for (index, column) in DayColumn.all.enumerated() where days[index] > 0 {
                averages[index] = column.rounded(totals[index]! / Double(days[index]), extraDecimals: 1)
                totals[index] = column.rounded(totals[index]!)
            }
            for (index, column) in DayColumn.all.enumerated() where column.period == .average { totals[index] = nil }
            result.append(
                DayPeriodRow(
                    start: CalendarDate.civilFromDays(periodStart), end: CalendarDate.civilFromDays(periodEnd), days: inside,
                    isPartial: inside < periodEnd - periodStart, totals: totals, averages: averages, daysWithValue: days))
            periodStart = periodEnd
        }
        return result
    }

    static func number(_ date: CalendarDate) -> Int { date.dayNumber }

    /// The first day of the period holding `day`: its Monday, or the first of its month.
    static func start(of day: Int, _ period: Period) -> Int {
        switch period {
        case .week:
            // 1970-01-01 was a Thursday: Monday is 3 days before it.
            let sinceMonday = ((day + 3) % 7 + 7) % 7
            return day - sinceMonday
        case .month:
            let date = CalendarDate.civilFromDays(day)
            return CalendarDate.daysFromCivil(year: date.year, month: date.month, day: 1)
        }
    }

    /// The first day of the next period.
    static func next(after start: Int, _ period: Period) -> Int {
        switch period {
        case .week: return start + 7
        case .month:
            let date = CalendarDate.civilFromDays(start)
            return date.month == 12
                ? CalendarDate.daysFromCivil(year: date.year + 1, month: 1, day: 1) : CalendarDate.daysFromCivil(year: date.year, month: date.month + 1, day: 1)
        }
    }
}
