import HealthConnect
import HealthModel
import HealthTestSupport
import Testing

/// Cycle tracking from the fixture's rows (`make-fixture.py`, all entered by hand in Fit), each
/// record as HealthKit's category sample for it, its value worked by hand from the platform's
/// codes (AOSP's `MenstruationFlowRecord`, `OvulationTestRecord`, `CervicalMucusRecord`,
/// `SexualActivityRecord`) and HealthKit's (`HKCategoryValueVaginalBleeding`,
/// `…OvulationTestResult`, `…CervicalMucusQuality`), never from the code under test.
@Suite struct HealthConnectCycleTrackingTests {
    static func categories(_ path: String, of type: String) throws -> [CategorySample] {
        try HealthConnectReaderTests.read(path).objects.compactMap { object -> CategorySample? in
            guard case .categorySample(let sample) = object, sample.sample.sampleType.identifier == type else { return nil }
            return sample
        }
    }

    static let flowType = "HKCategoryTypeIdentifierMenstrualFlow"

    /// The period (2026-01-05 00:00 to 01-07 00:00 at +01:00) is one flow sample over those two
    /// days, of unspecified flow (1), that starts a cycle; the flows after it are heavy (code 3,
    /// HealthKit's 4), light (1, HealthKit's 2) and unknown (0, unspecified: HealthKit's 1),
    /// none starting a cycle, each with its own code.
    @Test func menstruationPeriodAndFlow() throws {
        let fixture = try HealthConnectFixture.make()
        let flows = try Self.categories(fixture.database, of: Self.flowType)
        #expect(flows.count == 4)
        #expect(flows.map(\.value.rawValue) == [4, 2, 1, 1])
        #expect(
            flows.map(\.value.name) == [
                "HKCategoryValueVaginalBleedingHeavy", "HKCategoryValueVaginalBleedingLight",
                "HKCategoryValueVaginalBleedingUnspecified", "HKCategoryValueVaginalBleedingUnspecified",
            ])
        #expect(flows.map { $0.sample.metadata["HKMenstrualCycleStart"] } == [0, 0, 0, 1].map { .number(ExportNumber($0)) })
        #expect(flows.map { $0.sample.metadata["HealthConnectMenstruationFlow"] } == [.string("3"), .string("1"), .string("0"), nil])
        #expect(flows.allSatisfy { $0.sample.metadata["HKWasUserEntered"] == .number(ExportNumber(1)) })
        // The period: 2026-01-04 23:00 UTC is 1,767,571,200 − 3,600 = 1,767,567,600 s; two days
        // later, 1,767,567,600 + 172,800 = 1,767,740,400 s.
        let period = try #require(flows.last)
        #expect(period.sample.startDate == ExportTimestamp(secondsSince1970: 1_767_567_600, utcOffsetSeconds: 3600))
        #expect(period.sample.endDate == ExportTimestamp(secondsSince1970: 1_767_740_400, utcOffsetSeconds: 3600))
        // Flow-1 is an instant: 2026-01-05 08:10 at +01:00 is 07:10 UTC, 1,767,571,200 + 25,800.
        #expect(flows[0].sample.startDate.secondsSince1970 == 1_767_597_000)
        #expect(flows[0].sample.endDate == flows[0].sample.startDate)
    }

    /// Ovulation tests: high (2) is HealthKit's estrogen surge (4), positive (1) its LH surge
    /// (2), negative (3) its negative (1).
    @Test func ovulationTests() throws {
        let fixture = try HealthConnectFixture.make()
        let tests = try Self.categories(fixture.database, of: "HKCategoryTypeIdentifierOvulationTestResult")
        #expect(tests.map(\.value.rawValue) == [4, 2, 1])
        #expect(
            tests.map(\.value.name) == [
                "HKCategoryValueOvulationTestResultEstrogenSurge", "HKCategoryValueOvulationTestResultLuteinizingHormoneSurge",
                "HKCategoryValueOvulationTestResultNegative",
            ])
        #expect(tests.map { $0.sample.metadata["HealthConnectOvulationTestResult"] } == [.string("2"), .string("1"), .string("3")])
    }

    /// Cervical mucus: egg white (appearance 5) is HealthKit's egg white (5), its sensation
    /// (2, medium) kept beside it; an unusual appearance (6) has no HealthKit value, so that
    /// record is `HealthConnectCervicalMucus`, not applicable, both codes kept.
    @Test func cervicalMucus() throws {
        let fixture = try HealthConnectFixture.make()
        let quality = try Self.categories(fixture.database, of: "HKCategoryTypeIdentifierCervicalMucusQuality")
        #expect(quality.count == 1)
        #expect(quality.first?.value == CategoryValue(rawValue: 5, name: "HKCategoryValueCervicalMucusQualityEggWhite"))
        #expect(quality.first?.sample.metadata["HealthConnectCervicalMucusAppearance"] == .string("5"))
        #expect(quality.first?.sample.metadata["HealthConnectCervicalMucusSensation"] == .string("2"))
        let other = try Self.categories(fixture.database, of: HealthConnectTypes.cervicalMucus)
        #expect(other.count == 1)
        #expect(other.first?.value == CategoryValue(rawValue: 0, name: "HKCategoryValueNotApplicable"))
        #expect(other.first?.sample.metadata["HealthConnectCervicalMucusAppearance"] == .string("6"))
        #expect(other.first?.sample.metadata["HealthConnectCervicalMucusSensation"] == .string("1"))
        // The record's own uuid: Python's uuid5 of its name, "mucus-2", as the script makes it.
        #expect(other.first?.sample.uuid == ObjectUUID(uuidString: "B57B36C1-A063-50DE-B0DA-2F3DF5B6A030"))
    }

    /// Spotting is intermenstrual bleeding, not applicable; sexual activity says whether
    /// protection was used as HealthKit's Boolean (protected 1 is 1, unprotected 2 is 0, unknown 0
    /// is no key at all), its code kept.
    @Test func spottingAndSexualActivity() throws {
        let fixture = try HealthConnectFixture.make()
        let spotting = try Self.categories(fixture.database, of: "HKCategoryTypeIdentifierIntermenstrualBleeding")
        #expect(spotting.map(\.value) == [CategoryValue(rawValue: 0, name: "HKCategoryValueNotApplicable")])
        let activity = try Self.categories(fixture.database, of: "HKCategoryTypeIdentifierSexualActivity")
        #expect(activity.map(\.value.rawValue) == [0, 0, 0])
        #expect(activity.map { $0.sample.metadata["HKSexualActivityProtectionUsed"] } == [.number(ExportNumber(1)), .number(ExportNumber(0)), nil])
        #expect(activity.map { $0.sample.metadata["HealthConnectProtectionUsed"] } == [.string("1"), .string("2"), .string("0")])
    }

    /// A code newer than the reader is the record's "unknown", as the platform reads one: an
    /// ovulation result of 9 is indeterminate (3), a flow of 7 unspecified (1), the code kept. A
    /// code that is no number at all is refused with its place.
    @Test func unknownCodesAndDamagedOnes() throws {
        let fixture = try HealthConnectFixture.make()
        let newer = try HealthConnectFixture.altered(
            fixture.database,
            sql: "UPDATE ovulation_test_record_table SET result = 9 WHERE row_id = 1; UPDATE menstruation_flow_record_table SET flow = 7 WHERE row_id = 1;")
        let test = try #require(try Self.categories(newer, of: "HKCategoryTypeIdentifierOvulationTestResult").first)
        #expect(test.value == CategoryValue(rawValue: 3, name: "HKCategoryValueOvulationTestResultIndeterminate"))
        #expect(test.sample.metadata["HealthConnectOvulationTestResult"] == .string("9"))
        let flow = try #require(try Self.categories(newer, of: Self.flowType).first)
        #expect(flow.value.rawValue == 1)
        #expect(flow.sample.metadata["HealthConnectMenstruationFlow"] == .string("7"))

        let damaged = try HealthConnectFixture.altered(fixture.database, sql: "UPDATE menstruation_flow_record_table SET flow = 'heavy' WHERE row_id = 2;")
        let error = #expect(throws: HealthConnectError.self) { try HealthConnectReaderTests.read(damaged) }
        #expect(error?.code == .invalidValue)
        #expect(error?.description == "menstruation_flow_record_table row 2, column flow: a code that is not a whole number")
    }
}
