import Foundation
import HealthModel
import Testing
@testable import HealthQuery

/// Each category type's day as the Health app shows it (`CategoryDayMeasure`), each rule with
/// numbers worked out by hand in the test.
@Suite struct DayRulesTests {
    typealias T = SummaryCollectorTests

    static func category(
        _ type: String, _ start: String, _ end: String, _ value: String?, source: String = "Watch", device: Device? = T.watch,
        manual: Bool = false
    ) -> HealthObject {
        var attributes = T.attributes("HKCategoryTypeIdentifier" + type, start, end, source: source, device: device)
        if manual { attributes.metadata = Metadata([MetadataEntry(key: "HKWasUserEntered", value: .interpret("1"))]) }
        return .categorySample(CategorySample(sample: attributes, value: value.map(CategoryValue.interpret) ?? .notApplicable))
    }

    static func days(_ objects: [HealthObject], zone: TimeZone = T.utc) throws -> [String: DailySummary] {
        let (days, _) = try T.run(objects, zone: zone)
        return Dictionary(uniqueKeysWithValues: days.map { (TypeCatalogue.shortName(of: $0.type) + " " + $0.date.text, $0) })
    }

    @Test func theTableNamesEveryKnownCategoryType() {
        // Every category type healthport knows has a rule written for it, not the default.
        for entry in TypeCatalogue.all where entry.kind == .category {
            #expect(CategoryDayMeasure.isRuled(entry.identifier), "\(entry.identifier) has no rule of its own")
        }
        #expect(CategoryDayMeasure.of("HKCategoryTypeIdentifierAppleStandHour") == .hoursWithValue(0))
        #expect(CategoryDayMeasure.of("HKCategoryTypeIdentifierHeadache") == .present(absent: [1]))
        #expect(CategoryDayMeasure.of("HKCategoryTypeIdentifierSomethingNew") == .timeAndCount)
    }

    /// Twelve hours worn: 7 stood, 5 idle. The Health app says 7 stand hours; counting the
    /// samples said 12, and their time 12 hours.
    @Test func standHoursAreTheHoursStood() throws {
        var objects: [HealthObject] = []
        for hour in 8..<20 {
            let stood = [8, 9, 11, 13, 14, 17, 19].contains(hour)
            let h = String(format: "%02d", hour), next = String(format: "%02d", hour + 1)
            objects.append(
                Self.category(
                    "AppleStandHour", "2024-06-03 \(h):00:00 +0000", "2024-06-03 \(next):00:00 +0000",
                    stood ? "HKCategoryValueAppleStandHourStood" : "HKCategoryValueAppleStandHourIdle"))
        }
        let day = try #require(try Self.days(objects)["AppleStandHour 2024-06-03"])
        #expect(day.count == 7)
        #expect(day.duration == nil)
    }

    /// Headaches logged on three days: mild, then "not present", then severity unspecified.
    /// The middle day has no headache at all; the other two count one each.
    @Test func aSymptomNotPresentIsNoSymptom() throws {
        let days = try Self.days([
            Self.category("Headache", "2024-06-03 10:00:00 +0000", "2024-06-03 12:00:00 +0000", "HKCategoryValueSeverityMild", source: "iPhone"),
            Self.category("Headache", "2024-06-04 10:00:00 +0000", "2024-06-04 12:00:00 +0000", "HKCategoryValueSeverityNotPresent", source: "iPhone"),
            Self.category("Headache", "2024-06-05 10:00:00 +0000", "2024-06-05 12:00:00 +0000", "HKCategoryValueSeverityUnspecified", source: "iPhone"),
        ])
        #expect(days["Headache 2024-06-03"]?.count == 1)
        #expect(days["Headache 2024-06-04"] == nil)
        #expect(days["Headache 2024-06-05"]?.count == 1)
        #expect(days["Headache 2024-06-03"]?.duration == nil)
        // Menstrual flow "none" is no flow; "light" is.
        let flow = try Self.days([
            Self.category("MenstrualFlow", "2024-06-03 08:00:00 +0000", "2024-06-03 08:00:00 +0000", "HKCategoryValueMenstrualFlowNone", source: "iPhone"),
            Self.category("MenstrualFlow", "2024-06-04 08:00:00 +0000", "2024-06-04 08:00:00 +0000", "HKCategoryValueVaginalBleedingLight", source: "iPhone"),
        ])
        #expect(flow.keys.sorted() == ["MenstrualFlow 2024-06-04"])
    }

    /// A high-heart-rate event that lasted 10 minutes and two that were instants: three events,
    /// no time.
    @Test func eventsAreCountedNeverTimed() throws {
        let day = try #require(try Self.days([
            Self.category("HighHeartRateEvent", "2024-06-03 10:00:00 +0000", "2024-06-03 10:10:00 +0000", "HKCategoryValueNotApplicable"),
            Self.category("HighHeartRateEvent", "2024-06-03 15:00:00 +0000", "2024-06-03 15:00:00 +0000", "HKCategoryValueNotApplicable"),
            Self.category("HighHeartRateEvent", "2024-06-03 18:00:00 +0000", "2024-06-03 18:00:00 +0000", "HKCategoryValueNotApplicable"),
        ])["HighHeartRateEvent 2024-06-03"])
        #expect(day.count == 3)
        #expect(day.duration == nil)
    }

    /// Two apps log the same meditation, 07:00–07:20 and 07:10–07:20, and one alone at 21:00
    /// for 15 minutes: the time is 20 + 15 = 35 minutes (2,100 s); the sessions, 2 (the shorter
    /// copy wins no time).
    @Test func mindfulMinutesAreTheTimeCoveredOnce() throws {
        let day = try #require(try Self.days([
            Self.category("MindfulSession", "2024-06-03 07:00:00 +0000", "2024-06-03 07:20:00 +0000", nil, source: "Watch"),
            Self.category("MindfulSession", "2024-06-03 07:10:00 +0000", "2024-06-03 07:20:00 +0000", nil, source: "Calm", device: nil),
            Self.category("MindfulSession", "2024-06-03 21:00:00 +0000", "2024-06-03 21:15:00 +0000", nil, source: "Calm", device: nil),
        ])["MindfulSession 2024-06-03"])
        #expect(day.duration == 2_100)
        #expect(day.count == 2)
    }

    /// Sleep's day is the night that ends that morning: an iPhone in bed 22:30–06:30 (8 h)
    /// around a Watch's core sleep 23:00–06:00 (7 h). One row, on the morning's date, with 7 h
    /// asleep and 8 h in bed; nothing on the evening's date, where the night began.
    @Test func sleepsDayIsItsNight() throws {
        let days = try Self.days([
            Self.category("SleepAnalysis", "2024-06-02 22:30:00 +0000", "2024-06-03 06:30:00 +0000", "HKCategoryValueSleepAnalysisInBed", source: "iPhone", device: T.phone),
            Self.category("SleepAnalysis", "2024-06-02 23:00:00 +0000", "2024-06-03 06:00:00 +0000", "HKCategoryValueSleepAnalysisAsleepCore"),
        ])
        #expect(days.keys.sorted() == ["SleepAnalysis 2024-06-03"])
        #expect(days["SleepAnalysis 2024-06-03"]?.duration == 25_200)
        #expect(days["SleepAnalysis 2024-06-03"]?.inBed == 28_800)
        #expect(days["SleepAnalysis 2024-06-03"]?.count == 2)
    }
}

/// The sleep rules for the cases people report (issue 48), each worked by hand.
@Suite struct SleepRulesTests {
    typealias D = DayRulesTests
    static func s(_ start: String, _ end: String, _ stage: String, source: String = "Watch", device: Device? = SummaryCollectorTests.watch, manual: Bool = false) -> HealthObject {
        D.category("SleepAnalysis", start, end, "HKCategoryValueSleepAnalysis" + stage, source: source, device: device, manual: manual)
    }

    static func nights(_ objects: [HealthObject], zone: TimeZone = SummaryCollectorTests.utc, window: DateWindow? = nil) throws -> [SleepNight] {
        let collector = SummaryCollector()
        for object in objects { try collector.add(object) }
        var nights: [SleepNight] = []
        try collector.finish(
            timeZone: zone, selection: window.map { DaySelection(window: $0, timeZone: zone) }, daily: { _ in }, night: { nights.append($0) })
        return nights
    }

    /// A night of 23:00–07:00 core sleep, and a nap the next afternoon 14:00–14:40: the night
    /// keeps its 8 h, the nap is 40 min of naps on the same date (the night of the 3rd runs
    /// to 18:00 on the 3rd), never added to the night.
    @Test func aNapIsCountedApartFromTheNight() throws {
        let nights = try Self.nights([
            Self.s("2024-06-02 23:00:00 +0000", "2024-06-03 07:00:00 +0000", "AsleepCore"),
            Self.s("2024-06-03 14:00:00 +0000", "2024-06-03 14:40:00 +0000", "AsleepCore"),
        ])
        #expect(nights.count == 1)
        #expect(nights[0].night == CalendarDate(year: 2024, month: 6, day: 3))
        #expect(nights[0].asleep == 28_800 && nights[0].asleepCore == 28_800)
        #expect(nights[0].naps == 2_400)
        #expect(nights[0].sleepEnd == ExportTimestamp.parse("2024-06-03 07:00:00 +0000"))
    }

    /// Awake two hours in the night: 22:00–01:00 and 03:00–07:00, both the night's (7 h), no
    /// nap; a night worker's 09:00–16:00 is a night too, not a nap (it begins before 10:00 and
    /// lasts more than three hours).
    @Test func twoSessionsAtNightAndADaySleeperAreNights() throws {
        let split = try Self.nights([
            Self.s("2024-06-02 22:00:00 +0000", "2024-06-03 01:00:00 +0000", "AsleepCore"),
            Self.s("2024-06-03 03:00:00 +0000", "2024-06-03 07:00:00 +0000", "AsleepCore"),
        ])
        #expect(split.count == 1 && split[0].asleep == 25_200 && split[0].naps == 0)
        let day = try Self.nights([Self.s("2024-06-03 09:00:00 +0000", "2024-06-03 16:00:00 +0000", "AsleepCore")])
        #expect(day.count == 1 && day[0].asleep == 25_200 && day[0].naps == 0)
        // Seven hours from 11:00: more than three hours asleep, so a night too.
        let late = try Self.nights([Self.s("2024-06-03 11:00:00 +0000", "2024-06-03 18:00:00 +0000", "AsleepCore")])
        #expect(late[0].asleep == 25_200 && late[0].naps == 0)
    }

    /// watchOS 11: stages with no in-bed interval around them. The night has no time in bed
    /// (never a guessed one) and its asleep time as usual: 1 h core + 1 h deep.
    @Test func aNightWithoutInBedHasNoTimeInBed() throws {
        let nights = try Self.nights([
            Self.s("2024-06-02 23:00:00 +0000", "2024-06-03 00:00:00 +0000", "AsleepCore"),
            Self.s("2024-06-03 00:00:00 +0000", "2024-06-03 01:00:00 +0000", "AsleepDeep"),
        ])
        #expect(nights[0].inBed == nil)
        #expect(nights[0].asleep == 7_200)
    }

    /// A Watch and a sleep app both record stages for 23:00–07:00: 8 hours asleep, not 16.
    @Test func stagesFromTwoSourcesAreNeverAddedTwice() throws {
        let nights = try Self.nights([
            Self.s("2024-06-02 23:00:00 +0000", "2024-06-03 03:00:00 +0000", "AsleepCore"),
            Self.s("2024-06-03 03:00:00 +0000", "2024-06-03 07:00:00 +0000", "AsleepREM"),
            Self.s("2024-06-02 23:00:00 +0000", "2024-06-03 07:00:00 +0000", "AsleepDeep", source: "AutoSleep", device: nil),
        ])
        #expect(nights[0].asleep == 28_800)
        // The Watch ranks first: its core and REM, none of the app's deep.
        #expect(nights[0].asleepCore == 14_400 && nights[0].asleepREM == 14_400 && nights[0].asleepDeep == 0)
        #expect(nights[0].sources == ["Watch"])
    }

    /// Sleep entered by hand in the Health app (23:30–06:30, 7 h) over a Watch's 23:00–07:00
    /// core: the manual entry ranks first, as the Health app ranks it; the Watch counts only
    /// where the entry is silent (23:00–23:30 and 06:30–07:00). 7 h unspecified + 1 h core.
    @Test func aManualEntryRanksFirst() throws {
        let nights = try Self.nights([
            Self.s("2024-06-02 23:00:00 +0000", "2024-06-03 07:00:00 +0000", "AsleepCore"),
            Self.s("2024-06-02 23:30:00 +0000", "2024-06-03 06:30:00 +0000", "AsleepUnspecified", source: "Health", device: nil, manual: true),
        ])
        #expect(nights[0].asleepUnspecified == 25_200)
        #expect(nights[0].asleepCore == 3_600)
        #expect(nights[0].asleep == 28_800)
    }

    /// The night of 3 June: samples from 22:30 on the 2nd to 06:30 on the 3rd. Selected by its
    /// date, it is whole under any window that selects the 3rd, and absent from any that ends
    /// on the 3rd; a window's start at midnight never cuts it.
    @Test func aDateWindowSelectsWholeNights() throws {
        let objects = [
            Self.s("2024-06-01 23:00:00 +0000", "2024-06-02 07:00:00 +0000", "AsleepCore"),
            Self.s("2024-06-02 22:30:00 +0000", "2024-06-03 06:30:00 +0000", "AsleepCore"),
            Self.s("2024-06-03 23:00:00 +0000", "2024-06-04 06:00:00 +0000", "AsleepCore"),
        ]
        let all = try Self.nights(objects)
        #expect(all.map(\.night.day) == [2, 3, 4])
        func window(_ start: String?, _ end: String?) -> DateWindow {
            DateWindow.typed(start: start, end: end, strictStartDate: false, strictEndDate: false, zone: nil).window!
        }
        // --start 2024-06-03 --end 2024-06-04: the night of the 3rd, whole (8 h).
        let one = try Self.nights(objects, window: window("2024-06-03", "2024-06-04"))
        #expect(one.map(\.night.day) == [3])
        #expect(one[0].asleep == 28_800 && one[0] == all[1])
        // --end 2024-06-03 adds no night of the 3rd.
        #expect(try Self.nights(objects, window: window(nil, "2024-06-03")).map(\.night.day) == [2])
        // --start 2024-06-04: the night of the 4th, whole (7 h).
        let last = try Self.nights(objects, window: window("2024-06-04", nil))
        #expect(last.map(\.night.day) == [4] && last[0].asleep == 25_200)
    }
}
