import Foundation

/// Equal calendar intervals aligned on an anchor date, in a time zone
/// (HealthKit: `HKStatisticsCollectionQuery` with `anchorDate` and `intervalComponents`).
///
/// Intervals are half-open `[start, end)`, computed with calendar arithmetic, so a day across a
/// daylight-saving change lasts 23 or 25 hours, and a month is a calendar month.
public struct CalendarIntervals: Sendable {
    public enum Unit: String, Sendable, CaseIterable {
        case minute, hour, day, week, month, year
    }

    public let unit: Unit
    public let count: Int
    public let anchor: Date
    public let calendar: Calendar

    public init(unit: Unit, count: Int = 1, anchor: Date, timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.unit = unit
        self.count = max(1, count)
        self.anchor = anchor
        self.calendar = calendar
    }

    private var component: Calendar.Component {
        switch unit {
        case .minute: return .minute
        case .hour: return .hour
        case .day: return .day
        case .week: return .weekOfYear
        case .month: return .month
        case .year: return .year
        }
    }

    /// The start of interval `index` (0 is the one starting at the anchor).
    public func start(of index: Int) -> Date {
        calendar.date(byAdding: component, value: index * count, to: anchor) ?? anchor
    }

    /// The index of the interval containing `date`.
    public func index(of date: Date) -> Int {
        // A first guess from average lengths, then corrected by calendar arithmetic.
        let approximate: Double
        switch unit {
        case .minute: approximate = 60
        case .hour: approximate = 3600
        case .day: approximate = 86_400
        case .week: approximate = 604_800
        case .month: approximate = 2_629_746
        case .year: approximate = 31_556_952
        }
        var index = Int((date.timeIntervalSince(anchor) / (approximate * Double(count))).rounded(.down))
        while start(of: index) > date { index -= 1 }
        while start(of: index + 1) <= date { index += 1 }
        return index
    }
}
