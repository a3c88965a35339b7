import Foundation
import Testing
import HealthModel
@testable import HealthQuery

/// Calendar intervals are cut in the proleptic Gregorian calendar, HealthKit's, for every date:
/// Foundation's Gregorian calendar on Linux is Julian before 15 October 1582, and `stats`
/// counted 1000-03-01 in a month labelled 1000-02-06.
@Suite struct CalendarIntervalTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let paris = TimeZone(identifier: "Europe/Paris")!

    /// Days from 1970-01-01 to a proleptic Gregorian date, counted the long way (a year at a
    /// time, then a month at a time), not with the arithmetic under test.
    static func daysByCounting(_ year: Int, _ month: Int, _ day: Int) -> Int {
        func isLeap(_ y: Int) -> Bool { y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }
        var days = 0
        if year < 1970 {
            for y in year..<1970 { days -= isLeap(y) ? 366 : 365 }
        } else {
            for y in 1970..<year { days += isLeap(y) ? 366 : 365 }
        }
        let lengths = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        for m in 0..<(month - 1) { days += lengths[m] }
        return days + day - 1
    }

    static func seconds(_ year: Int, _ month: Int, _ day: Int, offset: Int = 0) -> Double {
        Double(daysByCounting(year, month, day) * 86_400 - offset)
    }

    @Test func theCountingAgreesWithDatesWorkedOutByHand() {
        // 1000-01-01: 970 years before 1970, 235 of them leap (243 multiples of 4 from 1000 to
        // 1968, less 1000, 1100, 1300, 1400, 1500, 1700, 1800 and 1900): 970 * 365 + 235 days.
        #expect(Self.daysByCounting(1000, 1, 1) == -354_285)
        // 1000 is no leap year in the Gregorian calendar (it is in the Julian one).
        #expect(Self.daysByCounting(1000, 3, 1) == -354_285 + 31 + 28)
        #expect(Self.daysByCounting(1582, 10, 15) == -141_427)
        #expect(Self.daysByCounting(2000, 1, 3) == 10_959)
    }

    @Test func monthsAndYearsBefore1582AreGregorian() {
        let months = CalendarIntervals(unit: .month, anchor: Date(timeIntervalSince1970: Self.seconds(1000, 1, 1)), timeZone: Self.utc)
        #expect(months.start(of: 1).timeIntervalSince1970 == Self.seconds(1000, 2, 1))
        #expect(months.start(of: 2).timeIntervalSince1970 == Self.seconds(1000, 3, 1))
        #expect(months.index(of: Date(timeIntervalSince1970: Self.seconds(1000, 3, 1))) == 2)
        #expect(months.index(of: Date(timeIntervalSince1970: Self.seconds(1000, 3, 1) - 1)) == 1)
        // Across the Julian calendar's last days: the month after 1 October 1582 begins on
        // 1 November, 31 days later.
        #expect(months.start(of: 12 * 582 + 9).timeIntervalSince1970 == Self.seconds(1582, 10, 1))
        #expect(months.start(of: 12 * 582 + 10).timeIntervalSince1970 == Self.seconds(1582, 11, 1))

        // The default anchor, 2000-01-01, a thousand years on.
        let years = CalendarIntervals(unit: .year, anchor: Date(timeIntervalSince1970: Self.seconds(2000, 1, 1)), timeZone: Self.utc)
        #expect(years.start(of: -1000).timeIntervalSince1970 == Self.seconds(1000, 1, 1))
        #expect(years.start(of: -418).timeIntervalSince1970 == Self.seconds(1582, 1, 1))
        #expect(years.index(of: Date(timeIntervalSince1970: Self.seconds(1000, 3, 1))) == -1000)
        #expect(years.index(of: Date(timeIntervalSince1970: Self.seconds(1582, 10, 10))) == -418)

        // 29 February 1600 (a leap year in both calendars) plus one year is 28 February 1601.
        let leap = CalendarIntervals(unit: .year, anchor: Date(timeIntervalSince1970: Self.seconds(1600, 2, 29)), timeZone: Self.utc)
        #expect(leap.start(of: 1).timeIntervalSince1970 == Self.seconds(1601, 2, 28))
        #expect(leap.start(of: 4).timeIntervalSince1970 == Self.seconds(1604, 2, 29))
        // 31 January 1000 plus one month is 28 February: 1000 is no leap year.
        let end = CalendarIntervals(unit: .month, anchor: Date(timeIntervalSince1970: Self.seconds(1000, 1, 31)), timeZone: Self.utc)
        #expect(end.start(of: 1).timeIntervalSince1970 == Self.seconds(1000, 2, 28))
        #expect(end.start(of: 2).timeIntervalSince1970 == Self.seconds(1000, 3, 31))
    }

    @Test func weeksAndDaysBefore1582() {
        // The default week anchor, Monday 2000-01-03: 1000-03-01 is a Saturday, in the week of
        // Monday 1000-02-24; 1582-10-20 is a Wednesday, in the week of Monday 1582-10-18.
        let weeks = CalendarIntervals(unit: .week, anchor: Date(timeIntervalSince1970: Self.seconds(2000, 1, 3)), timeZone: Self.utc)
        let index = weeks.index(of: Date(timeIntervalSince1970: Self.seconds(1000, 3, 1) + 43_200))
        #expect(weeks.start(of: index).timeIntervalSince1970 == Self.seconds(1000, 2, 24))
        #expect((Self.daysByCounting(2000, 1, 3) - Self.daysByCounting(1000, 2, 24)) % 7 == 0)
        let october = weeks.index(of: Date(timeIntervalSince1970: Self.seconds(1582, 10, 20)))
        #expect(weeks.start(of: october).timeIntervalSince1970 == Self.seconds(1582, 10, 18))
        let days = CalendarIntervals(unit: .day, anchor: Date(timeIntervalSince1970: Self.seconds(1582, 10, 1)), timeZone: Self.utc)
        #expect(days.start(of: 14).timeIntervalSince1970 == Self.seconds(1582, 10, 15))
    }

    /// In a named zone: Paris kept local mean time, 9 minutes 21 seconds ahead of Greenwich,
    /// until 1891 (the tz database's `LMT +0:09:21`).
    @Test func beforeStandardTimeTheZoneStillPlacesMidnight() {
        let lmt = 9 * 60 + 21
        #expect(Self.paris.secondsFromGMT(for: Date(timeIntervalSince1970: Self.seconds(1000, 3, 1))) == lmt)
        let anchor = Self.seconds(1000, 1, 1, offset: lmt)
        let months = CalendarIntervals(unit: .month, anchor: Date(timeIntervalSince1970: anchor), timeZone: Self.paris)
        #expect(months.start(of: 2).timeIntervalSince1970 == Self.seconds(1000, 3, 1, offset: lmt))
        #expect(months.index(of: Date(timeIntervalSince1970: Self.seconds(1000, 3, 1, offset: lmt))) == 2)
        #expect(months.index(of: Date(timeIntervalSince1970: Self.seconds(1000, 3, 1, offset: lmt) - 1)) == 1)
        let years = CalendarIntervals(unit: .year, anchor: Date(timeIntervalSince1970: anchor), timeZone: Self.paris)
        #expect(years.start(of: 582).timeIntervalSince1970 == Self.seconds(1582, 1, 1, offset: lmt))
    }

    /// Where Foundation's calendar is Gregorian (after 1582), the intervals are Foundation's,
    /// daylight-saving changes included: days of 23 and 25 hours, a time a change skips (02:30
    /// on the last Sunday of March in Paris, midnight in São Paulo in 2018), a time it repeats
    /// (the first occurrence going forward), a day a zone skipped altogether (30 December 2011
    /// in Apia), half-hour changes (Lord Howe), and month ends; except months before an anchor
    /// late in its month, which Foundation on Linux clamps wrongly (next test).
    @Test func afterTheJulianCalendarTheIntervalsAreFoundations() throws {
        let zones = ["UTC", "Europe/Paris", "America/Sao_Paulo", "Pacific/Apia", "Australia/Lord_Howe", "America/St_Johns",
            "Asia/Kathmandu", "America/New_York"].map { TimeZone(identifier: $0)! }
        let anchors = try [
            "2024-03-30T02:30:00+01:00", "2024-10-26T02:30:00+02:00", "2024-10-27T02:30:00+01:00", "2024-01-31T02:30:00+01:00",
            "2018-11-03T00:00:00-03:00", "2018-11-03T00:30:00-03:00", "2011-12-29T12:00:00-10:00", "2011-11-30T00:00:00-10:00",
            "2000-01-01T00:00:00+00:00", "2000-01-03T00:00:00+05:45", "2020-02-29T23:59:59-05:00", "2023-10-01T02:15:00+10:30",
        ].map { try #require(ISO8601DateFormatter().date(from: $0)) }
        let components: [(CalendarIntervals.Unit, Calendar.Component)] = [
            (.minute, .minute), (.hour, .hour), (.day, .day), (.week, .weekOfYear), (.month, .month), (.year, .year),
        ]
        for zone in zones {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            for anchor in anchors {
                for (unit, component) in components {
                    for count in [1, 3] {
                        let intervals = CalendarIntervals(unit: unit, count: count, anchor: anchor, timeZone: zone)
                        let day = calendar.component(.day, from: anchor)
                        for index in -40...40 where !(unit == .month && index < 0 && day > 28) {
                            let expected = try #require(calendar.date(byAdding: component, value: index * count, to: anchor))
                            #expect(
                                intervals.start(of: index) == expected,
                                "\(zone.identifier) \(anchor) \(unit) ×\(count) [\(index)]: \(intervals.start(of: index)) vs \(expected)")
                        }
                    }
                }
            }
        }
    }

    /// A month before the anchor keeps the anchor's day, or the month's last day: 31 January
    /// 2024 minus 23 months is 28 February 2022 (Foundation on Linux says 1 March: it clamps to
    /// the anchor's February, 29 days long in 2024), and 29 February 2020 minus 8 years is
    /// 29 February 2012 (Foundation: the 28th).
    @Test func aMonthBeforeTheAnchorIsClampedToItsOwnLength() {
        let january = CalendarIntervals(unit: .month, anchor: Date(timeIntervalSince1970: Self.seconds(2024, 1, 31)), timeZone: Self.utc)
        #expect(january.start(of: -23).timeIntervalSince1970 == Self.seconds(2022, 2, 28))
        #expect(january.start(of: -1).timeIntervalSince1970 == Self.seconds(2023, 12, 31))
        #expect(january.start(of: 1).timeIntervalSince1970 == Self.seconds(2024, 2, 29))
        let leap = CalendarIntervals(unit: .month, anchor: Date(timeIntervalSince1970: Self.seconds(2020, 2, 29)), timeZone: Self.utc)
        #expect(leap.start(of: -96).timeIntervalSince1970 == Self.seconds(2012, 2, 29))
        #expect(leap.start(of: -24).timeIntervalSince1970 == Self.seconds(2018, 2, 28))
    }
}
