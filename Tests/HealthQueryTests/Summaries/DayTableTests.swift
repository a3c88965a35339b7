import Foundation
import HealthModel
import Testing
@testable import HealthQuery

/// The day table (`healthport days`): the daily summary's values side by side, the weeks and
/// months made of them, and the workouts' heart rate, against numbers worked out by hand.
@Suite struct DayTableTests {
    static func date(_ day: Int) -> CalendarDate { CalendarDate(year: 2024, month: 4, day: day) }
    static func column(_ name: String) -> Int { DayColumn.all.firstIndex { $0.name == name }! }

    /// Steps from the summary (a sum in `count`), distance in metres shown in kilometres,
    /// blood oxygen as HealthKit keeps it (0.97) shown as a percentage, mindful time in
    /// minutes, and Apple's ring for the day beside; a type the table has no column for is not
    /// in it, and columns without a value are not shown.
    @Test func theDailySummaryIsPutSideBySideInTheColumnsUnits() {
        let builder = DayTableBuilder()
        builder.add(DailySummary(date: Self.date(1), type: "HKQuantityTypeIdentifierStepCount", unit: "count", sum: 8_412.4, count: 12, sources: []))
        builder.add(DailySummary(date: Self.date(1), type: "HKQuantityTypeIdentifierDistanceWalkingRunning", unit: "m", sum: 6_134.8, count: 9, sources: []))
        builder.add(DailySummary(date: Self.date(1), type: "HKQuantityTypeIdentifierOxygenSaturation", unit: "%", average: 0.964, count: 4, sources: []))
        builder.add(DailySummary(date: Self.date(2), type: "HKCategoryTypeIdentifierMindfulSession", unit: nil, duration: 1_230, count: 2, sources: []))
        builder.add(DailySummary(date: Self.date(2), type: "HKQuantityTypeIdentifierDietaryWater", unit: "mL", sum: 1500, count: 3, sources: []))
        var rings = ActivitySummary()
        rings.dateComponents = Self.date(1)
        rings.activeEnergyBurned = ExportNumber(2_092.0)  // kJ: 500 kcal
        rings.activeEnergyBurnedUnit = "kJ"
        rings.appleStandHours = ExportNumber(9)
        builder.add(rings: rings)
        let table = builder.table()
        #expect(table.rows.map(\.date) == [Self.date(1), Self.date(2)])
        #expect(table.columns.map { DayColumn.all[$0].name } == [
            "steps", "distance_km", "blood_oxygen_pct", "mindful_min", "apple_move_kcal", "apple_stand_hours",
        ])
        let first = table.rows[0]
        #expect(first.value("steps") == 8_412)  // whole steps
        #expect(first.value("distance_km") == 6.13)  // 6,134.8 m to 10 m
        #expect(first.value("blood_oxygen_pct") == 96)  // 0.964 as a whole percentage
        #expect(first.value("apple_move_kcal") == 500)  // 2,092 kJ / 4.184
        #expect(first.value("apple_stand_hours") == 9)
        #expect(table.rows[1].value("mindful_min") == 21)  // 1,230 s = 20.5 min, rounded half up
        #expect(table.rows[1].value("steps") == nil)
    }

    /// A night gives its morning's asleep time, time in bed and naps, in minutes.
    @Test func theNightsFillTheSleepColumns() {
        let builder = DayTableBuilder()
        builder.add(
            SleepNight(
                night: Self.date(3), inBed: 28_800, asleepUnspecified: 0, asleepCore: 18_000, asleepDeep: 3_600, asleepREM: 4_500,
                awake: 600, sleepStart: nil, sleepEnd: nil, naps: 1_800, sources: []))
        let row = builder.table().rows[0]
        #expect(row.value("asleep_min") == 435)  // 26,100 s
        #expect(row.value("in_bed_min") == 480)
        #expect(row.value("naps_min") == 30)
    }

    /// Steps on Wednesday 3 to Tuesday 9 April 2024 (Monday the 8th starts a week), none on
    /// the Friday; a resting heart rate on two days. Week of 1 April: partial (5 of its 7 days,
    /// the 3rd to the 7th, in the data's range; 1 and 2 before its first), steps 1000 + 2000 +
    /// 4000 = 7,000 over the 3 days with steps, 2,333.3 a day; resting heart rate (55 + 61)/2 =
    /// 58. Week of 8 April: 2 days (8, 9) of 7, partial; 3,000 + 5,000 = 8,000, 4,000 a day.
    @Test func weeksAreTotalsAndDailyAveragesWithPartialWeeksMarked() {
        var rows: [DayRow] = []
        let steps = Self.column("steps"), resting = Self.column("resting_heart_rate_bpm")
        for (day, value, heart) in [(3, 1000.0, 55.0), (4, 2000, nil), (5, nil, nil), (6, nil, 61), (7, 4000, nil), (8, 3000, nil), (9, 5000, nil)] as [(Int, Double?, Double?)] {
            var row = DayRow(date: Self.date(day))
            row.values[steps] = value
            row.values[resting] = heart
            rows.append(row)
        }
        let table = DayTable(columns: [steps, resting], rows: rows)
        let weeks = DayPeriods.rows(of: table, period: .week)
        #expect(weeks.map(\.start) == [Self.date(1), Self.date(8)])
        #expect(weeks.map(\.end) == [Self.date(8), Self.date(15)])
        #expect(weeks.map(\.days) == [5, 2])
        #expect(weeks.map(\.isPartial) == [true, true])
        #expect(weeks[0].totals[steps] == 7_000 && weeks[0].averages[steps] == 2_333.3)
        #expect(weeks[0].daysWithValue[steps] == 3)
        #expect(weeks[0].totals[resting] == nil && weeks[0].averages[resting] == 58)
        #expect(weeks[1].totals[steps] == 8_000 && weeks[1].averages[steps] == 4_000)
        // A window from Monday 1 to Monday 15 covers both weeks whole.
        let whole = DayPeriods.rows(of: table, period: .week, first: Self.date(1).dayNumber, end: Self.date(15).dayNumber)
        #expect(whole.map(\.isPartial) == [false, false])
        #expect(whole.map(\.days) == [7, 7])
        // Months: April, partial (3 to 9 of 30 days).
        let months = DayPeriods.rows(of: table, period: .month)
        #expect(months.count == 1 && months[0].start == Self.date(1) && months[0].end == CalendarDate(year: 2024, month: 5, day: 1))
        #expect(months[0].days == 7 && months[0].isPartial)
        #expect(months[0].totals[steps] == 15_000)
    }

    /// A workout 17:00–17:30 and heart rates at 16:59 (before), 17:10 (120), 17:20 (150, from
    /// another source), a 10-minute sample 17:25–17:35 (140, 5 minutes of it inside) and 17:31
    /// (after). Average weighted by time, instants by one second: (120 + 150 + 140 × 300) /
    /// (1 + 1 + 300) = 139.9; maximum 150.
    @Test func aWorkoutsHeartRateIsTheSamplesDuringIt() throws {
        let base: Int64 = 1_717_434_000  // 2024-06-03 17:00:00 UTC
        func heart(_ start: Int64, _ end: Int64, _ value: Int, source: String = "Watch") -> HealthObject {
            let s = ExportTimestamp(secondsSince1970: base + start, utcOffsetSeconds: 0).exportText
            let e = ExportTimestamp(secondsSince1970: base + end, utcOffsetSeconds: 0).exportText
            return .quantitySample(
                QuantitySample(
                    sample: SummaryCollectorTests.attributes("HKQuantityTypeIdentifierHeartRate", s, e, source: source, device: nil),
                    quantity: Quantity(value: ExportNumber(value), unit: "count/min")))
        }
        var workout = Workout(
            sample: SummaryCollectorTests.attributes(
                "HKWorkoutTypeIdentifier", "2024-06-03 17:00:00 +0000", "2024-06-03 17:30:00 +0000", source: "Watch", device: nil),
            workoutActivityType: WorkoutActivityType(name: "HKWorkoutActivityTypeFunctionalStrengthTraining"))
        workout.duration = Quantity(value: ExportNumber(28), unit: "min")
        let collector = SummaryCollector()
        for object in [
            heart(-60, -60, 200), heart(600, 600, 120), heart(1200, 1200, 150, source: "Polar"), heart(1500, 2100, 140), heart(1860, 1860, 190),
            .workout(workout),
        ] { try collector.add(object) }
        var workouts: [WorkoutSummary] = []
        try collector.finish(timeZone: SummaryCollectorTests.utc, daily: { _ in }, night: { _ in }, workout: { workouts.append($0) })
        let listed = try #require(workouts.first)
        #expect(workouts.count == 1)
        #expect(abs((listed.averageHeartRate ?? 0) - 42_270.0 / 302.0) < 1e-9)
        #expect(listed.maximumHeartRate == 150)
        #expect(listed.duration == 1_680)  // 28 min, the workout's own duration
        #expect(listed.activity == "Functional Strength Training")
        #expect(listed.date == CalendarDate(year: 2024, month: 6, day: 3))
    }
}
