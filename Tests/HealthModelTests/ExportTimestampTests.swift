import Testing
@testable import HealthModel

@Suite struct ExportTimestampTests {
    @Test func parsesTheExportFormAndKeepsTheOffset() throws {
        let t = try #require(ExportTimestamp.parse("2019-07-19 10:36:11 -0700"))
        #expect(t.secondsSince1970 == 1_563_557_771)
        #expect(t.utcOffsetSeconds == -25_200)
        #expect(t.iso8601 == "2019-07-19T10:36:11-07:00")
        #expect(t.exportText == "2019-07-19 10:36:11 -0700")
    }

    @Test(arguments: [
        ("20150616071916-0700", "2015-06-16T07:19:16-07:00"),
        ("2019-06-11T22:00:42Z", "2019-06-11T22:00:42+00:00"),
        ("2019-06-11T15:00:42-07:00", "2019-06-11T15:00:42-07:00"),
        ("2024-02-29 23:59:59 +0530", "2024-02-29T23:59:59+05:30"),
        ("1969-12-31 23:59:59 +0000", "1969-12-31T23:59:59+00:00"),
    ])
    func parsesEveryAcceptedForm(input: String, iso: String) throws {
        #expect(try #require(ExportTimestamp.parse(input)).iso8601 == iso)
    }

    @Test(arguments: [
        "2023-13-01 08:00:00 +0100", "2023-02-29 08:00:00 +0100", "2023-01-01 24:00:00 +0100",
        "2023-01-01 08:00:00 0100", "2023-01-01 08:00:00", "", "2023-01-01T08:00:00+01", "abcd-01-01 08:00:00 +0100",
    ])
    func rejectsMalformedDates(input: String) {
        #expect(ExportTimestamp.parse(input) == nil)
    }

    /// Years 0 and 10000 cannot be written in four digits, and an offset of up to 18 hours
    /// moves a date by a day: instants from 0001-01-02 to 9998-12-30 (UTC) are read, and none
    /// beyond, whatever offset they are printed in.
    @Test(arguments: [
        ("0001-01-02 00:00:00 +0000", true), ("0001-01-01 23:59:59 +0000", false), ("0001-01-02 05:00:00 +0600", false),
        ("0000-06-01 00:00:00 +0000", false), ("9998-12-30 23:59:59 +0000", true), ("9998-12-31 00:00:00 +0000", false),
        ("9998-12-30 12:00:00 -1200", false), ("9999-12-31 23:00:00 -1200", false), ("9998-12-31 13:59:59 +1400", true),
    ])
    func readsInstantsFromYear1ToYear9998(input: String, readable: Bool) {
        #expect((ExportTimestamp.parse(input) != nil) == readable)
    }

    /// A day of year 0 is no date (FHIR and XML Schema read years from 0001).
    @Test func yearZeroIsNoCalendarDate() {
        #expect(CalendarDate.parse("0000-01-01") == nil)
        #expect(CalendarDate.parse("0001-01-01") == CalendarDate(year: 1, month: 1, day: 1))
    }

    @Test func instantsCompareWithoutTheirOffsets() throws {
        let paris = try #require(ExportTimestamp.parse("2024-01-01 10:00:00 +0100"))
        let utc = try #require(ExportTimestamp.parse("2024-01-01 09:00:00 +0000"))
        #expect(!(paris < utc) && !(utc < paris))
        #expect(paris.secondsSince1970 == utc.secondsSince1970)
    }

    @Test func civilDayArithmeticRoundTrips() {
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            let date = CalendarDate.civilFromDays(days)
            #expect(CalendarDate.daysFromCivil(year: date.year, month: date.month, day: date.day) == days)
        }
    }
}
