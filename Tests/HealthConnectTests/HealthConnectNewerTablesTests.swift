import HealthConnect
import HealthModel
import HealthTestSupport
import Testing

/// The record tables Health Connect's newer database versions add (mindfulness sessions,
/// version 14; activity intensity, 16; skin temperature, 11; planned exercise sessions, 12), read from the fixture's version-16 database
/// (`make-fixture.py --schema v16`, its rows listed in `fill_newer`). Every value is worked by
/// hand in the comments from those rows and the platform's codes (AOSP's record classes at
/// 45168a88), never from the code under test. Times are at +01:00, the fixture's offset;
/// 2026-01-05 00:00 UTC is 1,767,571,200 s.
@Suite struct HealthConnectNewerTablesTests {
    static func objects(_ path: String, of type: String) throws -> [HealthObject] {
        try HealthConnectReaderTests.read(path).objects.filter { $0.objectType.identifier == type }
    }

    static func categories(_ path: String, of type: String) throws -> [CategorySample] {
        try objects(path, of: type).compactMap { object -> CategorySample? in
            guard case .categorySample(let sample) = object else { return nil }
            return sample
        }
    }

    static let notApplicable = CategoryValue(rawValue: 0, name: "HKCategoryValueNotApplicable")

    /// A version-10 database has none of the newer tables: it reads as it did (the 86 objects
    /// `HealthConnectReaderTests` counts), the tables named as absent; version 16 has them all.
    @Test func olderDatabasesLackTheNewerTables() throws {
        let current = try HealthConnectFixture.make()
        let reader = try HealthConnectReader(path: current.database)
        #expect(reader.schemaVersion == 10)
        #expect(reader.absentTables.contains("mindfulness_session_record_table"))
        #expect(try Self.objects(current.database, of: "HKCategoryTypeIdentifierMindfulSession").isEmpty)

        let newer = try HealthConnectFixture.make(schema: "v16")
        let newerReader = try HealthConnectReader(path: newer.database)
        #expect(newerReader.schemaVersion == 16)
        #expect(!newerReader.absentTables.contains("mindfulness_session_record_table"))
        for table in [
            "mindfulness_session_record_table", "activity_intensity_record_table", "skin_temperature_record_table",
            "planned_exercise_session_record_table",
        ] {
            #expect(reader.absentTables.contains(table))
            #expect(!newerReader.absentTables.contains(table))
        }
    }

    /// Four mindfulness sessions, each HealthKit's mindful session over its own interval, not
    /// applicable, its type code kept: meditation (1), unguided (6), breathing (3), other (2).
    /// The first, 07:30-07:45 on the 5th (06:30 UTC: 1,767,571,200 + 23,400 = 1,767,594,600 s, and
    /// 900 s later 1,767,595,500), has its title and notes; the second runs from 23:55 on the 5th
    /// (22:55 UTC, + 82,500 = 1,767,653,700) to 00:05 on the 6th (+ 600 = 1,767,654,300). Only
    /// the fourth was entered by hand (recording method 3).
    @Test func mindfulnessSessions() throws {
        let fixture = try HealthConnectFixture.make(schema: "v16")
        let sessions = try Self.categories(fixture.database, of: "HKCategoryTypeIdentifierMindfulSession")
        #expect(sessions.count == 4)
        #expect(sessions.allSatisfy { $0.value == Self.notApplicable })
        #expect(sessions.map { $0.sample.metadata["HealthConnectMindfulnessSessionType"] } == ["1", "6", "3", "2"].map { .string($0) })
        #expect(sessions.map { $0.sample.metadata["HealthConnectTitle"] } == [.string("Morning sit"), nil, nil, nil])
        #expect(sessions.map { $0.sample.metadata["HealthConnectNotes"] } == [.string("Counted breaths to ten"), nil, nil, nil])
        #expect(sessions.map { $0.sample.metadata["HKWasUserEntered"] } == [nil, nil, nil, .number(ExportNumber(1))])
        #expect(sessions.map(\.sample.sourceRevision.source.name) == ["Fit", "Fit", "Samsung Health", "Fit"])
        let first = try #require(sessions.first)
        #expect(first.sample.startDate == ExportTimestamp(secondsSince1970: 1_767_594_600, utcOffsetSeconds: 3600))
        #expect(first.sample.endDate == ExportTimestamp(secondsSince1970: 1_767_595_500, utcOffsetSeconds: 3600))
        // The record's own uuid: Python's uuid5 of its name, "mindfulness-1", as the script makes it.
        #expect(first.sample.uuid == ObjectUUID(uuidString: "192C2A5B-C385-5EF1-8C0B-9DD337D754FA"))
        #expect(sessions[1].sample.startDate.secondsSince1970 == 1_767_653_700)
        #expect(sessions[1].sample.endDate.secondsSince1970 == 1_767_654_300)
    }

    /// A session's text is bounded as every session's is (`HealthConnectLimits.textBytes`): at 13
    /// bytes, the client ids ("mindfulness-1", 13 bytes) and the title ("Morning sit", 11) are
    /// kept, the notes ("Counted breaths to ten", 22) are not, as an exercise session's are not.
    @Test func mindfulnessTextIsBounded() throws {
        let fixture = try HealthConnectFixture.make(schema: "v16")
        var limits = HealthConnectLimits()
        limits.textBytes = 13
        let collector = ObjectCollector()
        _ = try HealthConnectReader(path: fixture.database, limits: limits).read(into: collector, types: ["HKCategoryTypeIdentifierMindfulSession"])
        let first = try #require(collector.objects.first?.sampleAttributes)
        #expect(collector.objects.count == 4)
        #expect(first.metadata["HealthConnectTitle"] == .string("Morning sit"))
        #expect(first.metadata["HealthConnectNotes"] == nil)
    }

    /// A session type newer than the reader's list is kept as it is (the value does not depend
    /// on it); one that is no number is refused with its place, as every code column is.
    @Test func mindfulnessTypeUnknownAndDamaged() throws {
        let fixture = try HealthConnectFixture.make(schema: "v16")
        let newer = try HealthConnectFixture.altered(fixture.database, sql: "UPDATE mindfulness_session_record_table SET type = 9 WHERE row_id = 1;")
        let session = try #require(try Self.categories(newer, of: "HKCategoryTypeIdentifierMindfulSession").first)
        #expect(session.value == Self.notApplicable)
        #expect(session.sample.metadata["HealthConnectMindfulnessSessionType"] == .string("9"))

        let damaged = try HealthConnectFixture.altered(fixture.database, sql: "UPDATE mindfulness_session_record_table SET type = 'calm' WHERE row_id = 2;")
        let error = #expect(throws: HealthConnectError.self) { try HealthConnectReaderTests.read(damaged) }
        #expect(error?.code == .invalidValue)
        #expect(error?.description == "mindfulness_session_record_table row 2, column type: a code that is not a whole number")
    }

    /// Activity intensity, Health Connect's own category type, its value the intensity: the
    /// watch's moderate 20 minutes (0) and vigorous 10 (1) on the 5th, its vigorous run (1) and
    /// Fit's moderate half hour (0) on the 6th. The first starts at 08:00 on the 5th, 07:00 UTC:
    /// 1,767,571,200 + 25,200 = 1,767,596,400 s, and ends 1,200 s later.
    @Test func activityIntensity() throws {
        let fixture = try HealthConnectFixture.make(schema: "v16")
        let spans = try Self.categories(fixture.database, of: HealthConnectTypes.activityIntensity)
        #expect(spans.map(\.value.rawValue) == [0, 1, 1, 0])
        #expect(
            spans.map(\.value.name) == [
                "HealthConnectActivityIntensityModerate", "HealthConnectActivityIntensityVigorous",
                "HealthConnectActivityIntensityVigorous", "HealthConnectActivityIntensityModerate",
            ])
        #expect(spans.allSatisfy { $0.sample.sampleType.kind == .category })
        #expect(spans.map(\.sample.sourceRevision.source.name) == ["Samsung Health", "Samsung Health", "Samsung Health", "Fit"])
        #expect(spans[0].sample.startDate == ExportTimestamp(secondsSince1970: 1_767_596_400, utcOffsetSeconds: 3600))
        #expect(spans[0].sample.endDate.secondsSince1970 == 1_767_597_600)
        // Python's uuid5 of "intensity-2".
        #expect(spans[1].sample.uuid == ObjectUUID(uuidString: "9E0BB229-3FD4-5156-B0B6-FCC171FCBD49"))
    }

    /// An intensity newer than moderate and vigorous keeps its number, without a name; a NULL
    /// type (AOSP writes every record's) and text are damaged rows, refused with their place.
    @Test func activityIntensityUnknownAndDamaged() throws {
        let fixture = try HealthConnectFixture.make(schema: "v16")
        let newer = try HealthConnectFixture.altered(fixture.database, sql: "UPDATE activity_intensity_record_table SET type = 2 WHERE row_id = 1;")
        let span = try #require(try Self.categories(newer, of: HealthConnectTypes.activityIntensity).first)
        #expect(span.value == CategoryValue(rawValue: 2, name: nil))

        for (value, message) in [("NULL", "no intensity type"), ("'hard'", "a code that is not a whole number")] {
            let damaged = try HealthConnectFixture.altered(
                fixture.database, sql: "UPDATE activity_intensity_record_table SET type = \(value) WHERE row_id = 3;")
            let error = #expect(throws: HealthConnectError.self) { try HealthConnectReaderTests.read(damaged) }
            #expect(error?.code == .invalidValue)
            #expect(error?.description == "activity_intensity_record_table row 3, column type: \(message)")
        }
    }

    static func quantities(_ path: String, of type: String) throws -> [QuantitySample] {
        try objects(path, of: type).compactMap { object -> QuantitySample? in
            guard case .quantitySample(let sample) = object else { return nil }
            return sample
        }
    }

    /// Skin temperature: the first night's record (23:00 on the 5th to 07:00 on the 6th, 22:00
    /// UTC: 1,767,571,200 + 79,200 = 1,767,650,400 s, to 1,767,650,400 + 28,800 = 1,767,679,200)
    /// has a baseline of 33.6 degC, one sample with the record's uuid; the second night's has
    /// none (AOSP's "not set"), so no sample. The five deltas are differences, in delta_degC,
    /// each at its instant: -0.2 at 01:00 on the 6th (00:00 UTC, 1,767,657,600), +0.3 and +0.5
    /// two and four hours later, +0.8 at 02:00 on the 7th (01:00 UTC, 1,767,657,600 + 86,400 +
    /// 3,600 = 1,767,747,600) and +1.0 at 04:00. The first night's deltas carry its baseline and
    /// its location, the wrist (3); the second's the unknown location (0) alone.
    @Test func skinTemperature() throws {
        let fixture = try HealthConnectFixture.make(schema: "v16")
        let baselines = try Self.quantities(fixture.database, of: HealthConnectTypes.skinTemperatureBaseline)
        #expect(baselines.map(\.quantity) == [Quantity(value: ExportNumber(33.6), unit: "degC")])
        let baseline = try #require(baselines.first)
        // Python's uuid5 of "skin-temperature-1".
        #expect(baseline.sample.uuid == ObjectUUID(uuidString: "44051FAC-060B-5971-AE02-E84BA72E2DCB"))
        #expect(baseline.sample.startDate == ExportTimestamp(secondsSince1970: 1_767_650_400, utcOffsetSeconds: 3600))
        #expect(baseline.sample.endDate.secondsSince1970 == 1_767_679_200)
        #expect(baseline.sample.metadata["HealthConnectMeasurementLocation"] == .string("3"))

        let deltas = try Self.quantities(fixture.database, of: HealthConnectTypes.skinTemperatureDelta)
        #expect(deltas.map(\.quantity.value.value) == [-0.2, 0.3, 0.5, 0.8, 1.0])
        #expect(deltas.allSatisfy { $0.quantity.unit == "delta_degC" })
        #expect(
            deltas.map(\.sample.startDate.secondsSince1970) == [1_767_657_600, 1_767_664_800, 1_767_672_000, 1_767_747_600, 1_767_754_800])
        #expect(deltas.allSatisfy { $0.sample.endDate == $0.sample.startDate })
        let withBaseline = MetadataValue.quantity(Quantity(value: ExportNumber(33.6), unit: "degC"))
        #expect(deltas.map { $0.sample.metadata["HealthConnectSkinTemperatureBaseline"] } == [withBaseline, withBaseline, withBaseline, nil, nil])
        #expect(deltas.map { $0.sample.metadata["HealthConnectMeasurementLocation"] } == ["3", "3", "3", "0", "0"].map { .string($0) })
        #expect(Set(deltas.map(\.sample.uuid) + [baseline.sample.uuid]).count == 6)
    }

    /// A location code newer than the reader's is kept; a baseline or a delta that is no number,
    /// and a location that is no whole number, are refused with their place.
    @Test func skinTemperatureUnknownAndDamaged() throws {
        let fixture = try HealthConnectFixture.make(schema: "v16")
        let newer = try HealthConnectFixture.altered(fixture.database, sql: "UPDATE skin_temperature_record_table SET measurement_location = 7 WHERE row_id = 1;")
        let baseline = try #require(try Self.quantities(newer, of: HealthConnectTypes.skinTemperatureBaseline).first)
        #expect(baseline.sample.metadata["HealthConnectMeasurementLocation"] == .string("7"))

        for (sql, place) in [
            ("UPDATE skin_temperature_record_table SET baseline = 'warm' WHERE row_id = 1;", "skin_temperature_record_table row 1, column baseline: not a number"),
            ("UPDATE skin_temperature_delta_table SET delta = 'up' WHERE epoch_millis = 1767747600000;",
             "skin_temperature_delta_table row 2, column delta: no value, or not a number"),
            ("UPDATE skin_temperature_record_table SET measurement_location = 'wrist' WHERE row_id = 2;",
             "skin_temperature_record_table row 2, column measurement_location: a code that is not a whole number"),
        ] {
            let damaged = try HealthConnectFixture.altered(fixture.database, sql: sql)
            let error = #expect(throws: HealthConnectError.self) { try HealthConnectReaderTests.read(damaged) }
            #expect(error?.code == .invalidValue)
            #expect(error?.description == place)
        }
    }

    /// Planned exercise sessions, plans as Health Connect's own category type over the planned
    /// interval, not applicable. The watch's "Easy run", 18:00-18:45 on the 6th (17:00 UTC:
    /// 1,767,657,600 + 61,200 = 1,767,718,800 s, to + 2,700 = 1,767,721,500), running (33), at an
    /// explicit time, completed by the run, whose workout has the uuid the plan names (Python's
    /// uuid5 of "exercise-1"); Fit's "Leg day" on the 9th, a day without a time (00:00, 8th
    /// 23:00 UTC: 1,767,571,200 + 4 x 86,400 - 3,600 = 1,767,913,200), strength training (45),
    /// entered by hand, not done.
    @Test func plannedExerciseSessions() throws {
        let fixture = try HealthConnectFixture.make(schema: "v16")
        let plans = try Self.categories(fixture.database, of: HealthConnectTypes.plannedExerciseSession)
        #expect(plans.count == 2)
        #expect(plans.allSatisfy { $0.value == Self.notApplicable && $0.sample.sampleType.kind == .category })
        #expect(plans.map { $0.sample.metadata["HealthConnectExerciseType"] } == [.string("33"), .string("45")])
        #expect(plans.map { $0.sample.metadata["HealthConnectTitle"] } == [.string("Easy run"), .string("Leg day")])
        #expect(plans.map { $0.sample.metadata["HealthConnectNotes"] } == [.string("Keep heart rate under 150"), nil])
        #expect(plans.map { $0.sample.metadata["HealthConnectHasExplicitTime"] } == [.string("1"), .string("0")])
        #expect(plans.map { $0.sample.metadata["HKWasUserEntered"] } == [nil, .number(ExportNumber(1))])
        let run = "17831D0A-43F4-5ECF-ABEB-D1DF98CD0FEF"
        #expect(plans.map { $0.sample.metadata["HealthConnectCompletedExerciseSession"] } == [.string(run), nil])
        let workouts = try Self.objects(fixture.database, of: "HKWorkoutTypeIdentifier")
        #expect(workouts.first?.uuid == ObjectUUID(uuidString: run))
        // Python's uuid5 of "plan-1".
        #expect(plans[0].sample.uuid == ObjectUUID(uuidString: "3073BC50-37ED-594B-917C-04ABF5166F4A"))
        #expect(plans[0].sample.startDate == ExportTimestamp(secondsSince1970: 1_767_718_800, utcOffsetSeconds: 3600))
        #expect(plans[0].sample.endDate.secondsSince1970 == 1_767_721_500)
        #expect(plans[1].sample.startDate.secondsSince1970 == 1_767_913_200)
    }

    /// An exercise type newer than the reader is kept as its code; a type that is no number and
    /// a completed session that is no 16-byte uuid are refused with their place.
    @Test func plannedExerciseUnknownAndDamaged() throws {
        let fixture = try HealthConnectFixture.make(schema: "v16")
        let newer = try HealthConnectFixture.altered(fixture.database, sql: "UPDATE planned_exercise_session_record_table SET exercise_type = 99 WHERE row_id = 2;")
        let plans = try Self.categories(newer, of: HealthConnectTypes.plannedExerciseSession)
        #expect(plans.map { $0.sample.metadata["HealthConnectExerciseType"] } == [.string("33"), .string("99")])

        for (sql, place) in [
            ("UPDATE planned_exercise_session_record_table SET exercise_type = 'run' WHERE row_id = 1;",
             "planned_exercise_session_record_table row 1, column exercise_type: a code that is not a whole number"),
            ("UPDATE planned_exercise_session_record_table SET completed_session_id = X'0102' WHERE row_id = 1;",
             "planned_exercise_session_record_table row 1, column completed_session_id: a completed session id that is not a 16-byte uuid"),
        ] {
            let damaged = try HealthConnectFixture.altered(fixture.database, sql: sql)
            let error = #expect(throws: HealthConnectError.self) { try HealthConnectReaderTests.read(damaged) }
            #expect(error?.code == .invalidValue)
            #expect(error?.description == place)
        }
    }

    /// The version-16 fixture holds the version-10 fixture's 86 objects and, from the newer
    /// tables, 4 mindfulness sessions, 4 activity intensities, 1 skin temperature baseline and 5
    /// deltas, and 2 planned sessions: 86 + 16 = 102, every uuid distinct.
    @Test func everyNewerRecordBecomesAnObject() throws {
        let fixture = try HealthConnectFixture.make(schema: "v16")
        let objects = try HealthConnectReaderTests.read(fixture.database).objects
        #expect(objects.count == 102)
        #expect(Set(objects.map(\.uuid)).count == 102)
    }
}
