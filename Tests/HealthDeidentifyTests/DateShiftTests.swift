import HealthModel
import Testing

@testable import HealthDeidentify

struct DateShiftTests {
    let key = DeidentificationKey(secret: Array(repeating: 7, count: 32))!

    @Test func theSameKeyAndPersonGiveTheSameShiftAndAnotherKeyAnother() {
        let other = DeidentificationKey(secret: Array(repeating: 8, count: 32))!
        #expect(DateShift(key: key, person: "p1") == DateShift(key: key, person: "p1"))
        let persons = (0..<20).map { "p\($0)" }
        #expect(Set(persons.map { DateShift(key: key, person: $0).weeks }).count > 10)
        #expect(persons.contains { DateShift(key: key, person: $0) != DateShift(key: other, person: $0) })
    }

    @Test func shiftsAreWholeWeeksIntoThePastWithinTheRange() {
        for person in (0..<200).map({ "person-\($0)" }) {
            let shift = DateShift(key: key, person: person)
            #expect((DateShift.minimumWeeks...DateShift.maximumWeeks).contains(shift.weeks))
            #expect(shift.days % 7 == 0 && shift.days < 0)
        }
    }

    /// In UTC: the printed offsets would mark the Sundays the clocks changed, and date the shift.
    @Test func theUTCTimeOfDayWeekdayAndIntervalsAreKept() throws {
        let shift = DateShift(key: key, person: "")
        let start = try #require(ExportTimestamp.parse("2024-03-09 23:30:15 +0100"))
        let end = try #require(ExportTimestamp.parse("2024-03-10 07:05:00 +0100"))
        let (s, e) = (shift.shifted(start), shift.shifted(end))
        #expect(e.secondsSince1970 - s.secondsSince1970 == end.secondsSince1970 - start.secondsSince1970)
        #expect(s.utcOffsetSeconds == 0 && e.utcOffsetSeconds == 0)
        #expect(s.iso8601.dropFirst(10) == "T22:30:15+00:00")  // 23:30:15+01:00 in UTC
        let weekday = { (t: ExportTimestamp) in (t.secondsSince1970 / 86_400 + 4) % 7 }
        #expect(weekday(s) == weekday(start))
        #expect(s.iso8601.prefix(10) != start.iso8601.prefix(10))
        let day = CalendarDate(year: 2024, month: 3, day: 9)
        #expect(CalendarDate.daysFromCivil(year: day.year, month: day.month, day: day.day) + shift.days
            == { let d = shift.shifted(day); return CalendarDate.daysFromCivil(year: d.year, month: d.month, day: d.day) }())
    }
}
