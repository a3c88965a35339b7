import HealthConnect
import HealthModel
import Foundation
import HealthTestSupport
import Testing

/// The reader over the fixture `Scripts/healthconnect/make-fixture.py` writes (its rows are
/// listed there): every record becomes the HealthKit object that means the same, in HealthKit's
/// units, keeping its uuid, app and device; and what is not Health Connect's database is
/// refused with the table, row and column at fault.
@Suite struct HealthConnectReaderTests {
    static func read(_ path: String) throws -> ObjectCollector {
        let collector = ObjectCollector()
        _ = try HealthConnectReader(path: path).read(into: collector)
        return collector
    }

    static func samples(_ objects: [HealthObject], of type: String) -> [HealthObject] {
        objects.filter { $0.objectType.identifier == type }
    }

    static func quantity(_ object: HealthObject) -> Double? {
        if case .quantitySample(let sample) = object { return sample.quantity.value.value }
        return nil
    }

    /// 11 steps, 2 distances, 2 active and 1 total energy, 1 weight, 1 body fat, 1 resting
    /// heart rate, 1 RMSSD, 1 water, 1 floors, 3 heart-rate readings (one series of three), the
    /// sleep session and its 6 stages, 1 exercise session, and a blood pressure as a systolic, a
    /// diastolic and their correlation: 36; and cycle tracking, 1 period and 3 flows, 3
    /// ovulation tests, 2 cervical mucus records, 1 spotting, 3 sexual activities: 13; 2 basal
    /// body temperatures and 1 body temperature: 3; two meals, a lunch of 15 nutrients and an
    /// espresso of 2, each with its food correlation: 19; bone mass, body water mass and basal
    /// metabolic rate: 3; 2 blood glucose readings; 9 readings of speed, power and step and pedal
    /// cadence, and a strength session: 10. 86 in all.
    @Test func everyRecordBecomesAnObject() throws {
        let fixture = try HealthConnectFixture.make()
        let objects = try Self.read(fixture.database).objects
        let count = { (type: String) in Self.samples(objects, of: type).count }
        #expect(count("HKQuantityTypeIdentifierStepCount") == 11)
        #expect(count("HKQuantityTypeIdentifierDistanceWalkingRunning") == 2)
        #expect(count("HKQuantityTypeIdentifierActiveEnergyBurned") == 2)
        #expect(count(HealthConnectTypes.totalCaloriesBurned) == 1)
        #expect(count("HKQuantityTypeIdentifierBodyMass") == 1)
        #expect(count("HKQuantityTypeIdentifierHeartRate") == 3)
        #expect(count("HKCategoryTypeIdentifierSleepAnalysis") == 7)
        #expect(count("HKWorkoutTypeIdentifier") == 2)
        #expect(count("HKQuantityTypeIdentifierBodyFatPercentage") == 1)
        #expect(count("HKQuantityTypeIdentifierRestingHeartRate") == 1)
        #expect(count(HealthConnectTypes.heartRateVariabilityRMSSD) == 1)
        #expect(count("HKQuantityTypeIdentifierDietaryWater") == 1)
        #expect(count("HKQuantityTypeIdentifierFlightsClimbed") == 1)
        #expect(count("HKCorrelationTypeIdentifierBloodPressure") == 1)
        #expect(count("HKQuantityTypeIdentifierBloodPressureSystolic") == 1)
        #expect(count("HKQuantityTypeIdentifierBloodPressureDiastolic") == 1)
        #expect(count("HKCategoryTypeIdentifierMenstrualFlow") == 4)
        #expect(count("HKCategoryTypeIdentifierOvulationTestResult") == 3)
        #expect(count("HKCategoryTypeIdentifierCervicalMucusQuality") + count(HealthConnectTypes.cervicalMucus) == 2)
        #expect(count("HKCategoryTypeIdentifierIntermenstrualBleeding") == 1)
        #expect(count("HKCategoryTypeIdentifierSexualActivity") == 3)
        #expect(count("HKQuantityTypeIdentifierBasalBodyTemperature") == 2)
        #expect(count("HKQuantityTypeIdentifierBodyTemperature") == 1)
        #expect(count("HKCorrelationTypeIdentifierFood") == 2)
        #expect(count("HKQuantityTypeIdentifierDietaryEnergyConsumed") == 2)
        #expect(count(HealthConnectTypes.boneMass) == 1)
        #expect(count(HealthConnectTypes.bodyWaterMass) == 1)
        #expect(count(HealthConnectTypes.basalMetabolicRate) == 1)
        #expect(count("HKQuantityTypeIdentifierBloodGlucose") == 2)
        #expect(count(HealthConnectTypes.speed) == 3)
        #expect(count(HealthConnectTypes.power) + count(HealthConnectTypes.stepsCadence) + count("HKQuantityTypeIdentifierCyclingCadence") == 6)
        #expect(objects.count == 86)
        // Every uuid distinct: the children's derived ones too.
        #expect(Set(objects.map(\.uuid)).count == 86)
    }

    /// Grams to kilograms, small calories to kcal, metres kept; a manual entry is user-entered;
    /// the app is the source (its name, its package as the bundle identifier), the device the
    /// device; the uuid is the record's 16 bytes (Python's uuid5 of the record's name, as the
    /// script makes it).
    @Test func unitsProvenanceAndUUIDs() throws {
        let fixture = try HealthConnectFixture.make()
        let objects = try Self.read(fixture.database).objects
        let weight = try #require(Self.samples(objects, of: "HKQuantityTypeIdentifierBodyMass").first)
        guard case .quantitySample(let sample) = weight else { Issue.record("not a quantity sample"); return }
        #expect(sample.quantity.value.value == 72.5)
        #expect(sample.quantity.unit == "kg")
        #expect(sample.sample.metadata["HKWasUserEntered"] == .number(ExportNumber(1)))
        #expect(sample.sample.sourceRevision.source.name == "Fit")
        #expect(sample.sample.sourceRevision.source.bundleIdentifier == "com.google.android.apps.fitness")
        #expect(sample.sample.device?.manufacturer == "Google")
        #expect(sample.sample.device?.hardwareVersion == "Pixel 8")
        #expect(sample.sample.device?.model == "Phone" && sample.sample.device?.name == "Phone")
        #expect(sample.sample.uuid == ObjectUUID(uuidString: "EB121E51-EDA9-5BD1-95A5-98FA5769F4DF"))
        // 2026-01-05 07:00 at +01:00 is 06:00 UTC: 1,767,592,800 s.
        #expect(sample.sample.startDate == ExportTimestamp(secondsSince1970: 1_767_592_800, utcOffsetSeconds: 3600))

        let energy = Self.samples(objects, of: "HKQuantityTypeIdentifierActiveEnergyBurned").compactMap(Self.quantity)
        #expect(energy.sorted() == [45, 60])  // 45,000 and 60,000 cal
        let steps = try #require(Self.samples(objects, of: "HKQuantityTypeIdentifierStepCount").first)
        #expect(steps.uuid == ObjectUUID(uuidString: "ED31C3CF-3F56-5394-94F1-4B8E9822C2AB"))
        #expect(Self.quantity(steps) == 600)
        #expect(steps.sampleAttributes?.metadata["HKWasUserEntered"] == nil)
        let heart = Self.samples(objects, of: "HKQuantityTypeIdentifierHeartRate").compactMap(Self.quantity)
        #expect(heart == [72, 75, 80])
        // 21.5 % is stored as 21.5 and held as HealthKit holds percentages, 0.215; a quarter
        // litre of water is 250 mL.
        let fat = Self.samples(objects, of: "HKQuantityTypeIdentifierBodyFatPercentage").compactMap(Self.quantity)
        #expect(fat.count == 1 && abs(fat[0] - 0.215) < 1e-12)
        #expect(Self.samples(objects, of: "HKQuantityTypeIdentifierDietaryWater").compactMap(Self.quantity) == [250])
        // The blood pressure's correlation refers to the very samples listed beside it.
        guard case .correlation(let pressure)? = Self.samples(objects, of: "HKCorrelationTypeIdentifierBloodPressure").first else {
            Issue.record("no blood pressure")
            return
        }
        let systolic = try #require(Self.samples(objects, of: "HKQuantityTypeIdentifierBloodPressureSystolic").first)
        #expect(pressure.objects.map(\.sample.uuid).first == systolic.uuid)
        #expect(Self.quantity(systolic) == 121)
        #expect(pressure.sample.metadata["HKWasUserEntered"] == .number(ExportNumber(1)))
    }

    /// The session is the time in bed; each stage a sample of HealthKit's value for it
    /// (awake 2, core 3, deep 4, REM 5), in order; the run a running workout of 45 minutes.
    @Test func sleepStagesAndTheRun() throws {
        let fixture = try HealthConnectFixture.make()
        let objects = try Self.read(fixture.database).objects
        let sleep = Self.samples(objects, of: "HKCategoryTypeIdentifierSleepAnalysis").compactMap { object -> Int? in
            if case .categorySample(let sample) = object { return sample.value.rawValue }
            return nil
        }
        #expect(sleep == [0, 2, 3, 4, 5, 3, 2])
        let session = try #require(Self.samples(objects, of: "HKCategoryTypeIdentifierSleepAnalysis").first)
        #expect(session.uuid == ObjectUUID(uuidString: "0BBF7866-C8E2-5E21-B081-6C11686BA44D"))
        guard case .workout(let run)? = Self.samples(objects, of: "HKWorkoutTypeIdentifier").first else {
            Issue.record("no workout")
            return
        }
        #expect(run.workoutActivityType.name == "HKWorkoutActivityTypeRunning")
        #expect(run.duration?.value.value == 45)
        #expect(run.sample.metadata["HealthConnectTitle"] == .string("Evening run"))
        // Its route, four points inline, and its two laps of six minutes and 1,000 m.
        #expect(run.routes.count == 1)
        #expect(run.routes.first?.locations.map { $0.latitude?.value } == [52.52, 52.52, 52.52, 52.52])
        #expect(run.routes.first?.locations.map { $0.altitude?.value } == [34, 35, 36, 37])
        #expect(run.routes.first?.sample.sampleType == .workoutRoute)
        #expect(run.workoutEvents.map(\.type.name) == ["HKWorkoutEventTypeLap", "HKWorkoutEventTypeLap"])
        #expect(run.workoutEvents.map { $0.duration?.value.value } == [6, 6])
        #expect(run.workoutEvents.first?.metadata["HealthConnectLapLength"] == .quantity(Quantity(value: ExportNumber(1000), unit: "m")))
    }

    /// The priority list: activity is Samsung Health, then Fit (the pedometer is not on it);
    /// sleep is Fit alone. The export's date is the latest modification, at its offset.
    @Test func theHeaderCarriesThePriorityList() throws {
        let fixture = try HealthConnectFixture.make()
        let header = try HealthConnectReader(path: fixture.database).header()
        let priority = try #require(header.healthConnectPriority)
        #expect(priority.apps[.activity] == ["com.sec.android.app.shealth", "com.google.android.apps.fitness"])
        #expect(priority.apps[.sleep] == ["com.google.android.apps.fitness"])
        #expect(header.exportDate?.utcOffsetSeconds == 3600)
        #expect(header.locale == "en_GB")
    }

    /// The layout before version 10 (no generated local-time columns) reads the same objects.
    @Test func theOlderSchemaReadsAlike() throws {
        let current = try Self.read(try HealthConnectFixture.make().database).objects
        let older = try HealthConnectReader(path: try HealthConnectFixture.make(schema: "v9").database)
        #expect(older.schemaVersion == 9)
        let collector = ObjectCollector()
        _ = try older.read(into: collector)
        #expect(collector.objects == current)
    }

    /// An SQLite database that is not Health Connect's, and a record whose uuid is not 16 bytes,
    /// are refused with the place in the database.
    @Test func refusesWhatIsNotItsSchema() throws {
        let fixture = try HealthConnectFixture.make()
        let foreign = try HealthConnectFixture.altered(fixture.database, sql: "DROP TABLE application_info_table;")
        let noApps = #expect(throws: HealthConnectError.self) { try HealthConnectReader(path: foreign) }
        #expect(noApps?.code == .notHealthConnect)
        #expect(noApps?.table == "application_info_table")

        let noColumn = try HealthConnectFixture.altered(fixture.database, sql: "ALTER TABLE steps_record_table DROP COLUMN count;")
        let noCount = #expect(throws: HealthConnectError.self) { try HealthConnectReader(path: noColumn) }
        #expect(noCount?.code == .notHealthConnect)
        #expect(noCount?.table == "steps_record_table")
        #expect(noCount?.column == "count")

        let shortUUID = try HealthConnectFixture.altered(fixture.database, sql: "UPDATE steps_record_table SET uuid = X'0102' WHERE row_id = 3;")
        let badUUID = #expect(throws: HealthConnectError.self) { try Self.read(shortUUID) }
        #expect(badUUID?.code == .invalidValue)
        #expect(badUUID?.table == "steps_record_table")
        #expect(badUUID?.row == 3)
        #expect(badUUID?.column == "uuid")

        let text = try Fixtures.temporaryDirectory().appendingPathComponent("text.db").path
        try "not a database at all, though long enough".write(toFile: text, atomically: true, encoding: .utf8)
        let notSQLite = #expect(throws: HealthConnectError.self) { try HealthConnectReader(path: text) }
        #expect(notSQLite?.code == .notADatabase)
    }

    /// A text value larger than the limit is refused, not held.
    @Test func boundsTheTextOfARow() throws {
        let fixture = try HealthConnectFixture.make()
        let long = try HealthConnectFixture.altered(
            fixture.database, sql: "UPDATE exercise_session_record_table SET client_record_id = hex(zeroblob(40000));")
        let error = #expect(throws: HealthConnectError.self) { try Self.read(long) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.table == "exercise_session_record_table")
        #expect(error?.column == "client_record_id")
    }
}
