import HealthConnect
import HealthModel
import HealthTestSupport
import Testing

/// The series read beside heart rate (speed, power, step and pedal cadence) and an exercise
/// session's segments, from the fixture's rows (`make-fixture.py`): one sample per reading, in
/// the units AOSP stores (m/s, W, per minute), and one segment event per segment.
@Suite struct HealthConnectSeriesAndSegmentsTests {
    static func readings(_ objects: [HealthObject], of type: String) -> [QuantitySample] {
        objects.compactMap { object -> QuantitySample? in
            guard case .quantitySample(let sample) = object, sample.sample.sampleType.identifier == type else { return nil }
            return sample
        }
    }

    static func workouts(_ objects: [HealthObject]) -> [Workout] {
        objects.compactMap { object -> Workout? in
            if case .workout(let workout) = object { return workout }
            return nil
        }
    }

    /// The run's speed (2.8, 3.1, 3.0 m/s), power (240, 255 W) and step cadence (162, 166 a
    /// minute), a reading a minute from 18:00 on the 6th, as types of Health Connect's own
    /// (HealthKit's speeds and powers are an activity's); the ride's pedal cadence (85, 90
    /// revolutions a minute) is HealthKit's cycling cadence.
    @Test func seriesReadingsAreSamples() throws {
        let fixture = try HealthConnectFixture.make()
        let objects = try HealthConnectReaderTests.read(fixture.database).objects
        let speed = Self.readings(objects, of: HealthConnectTypes.speed)
        #expect(speed.map(\.quantity) == [2.8, 3.1, 3.0].map { Quantity(value: ExportNumber($0), unit: "m/s") })
        // 2026-01-06 18:00 at +01:00 is 17:00 UTC: 1,767,571,200 + 86,400 + 61,200 s; then a
        // minute apart.
        #expect(speed.map(\.sample.startDate.secondsSince1970) == [1_767_718_800, 1_767_718_860, 1_767_718_920])
        #expect(Self.readings(objects, of: HealthConnectTypes.power).map(\.quantity) == [240, 255].map { Quantity(value: ExportNumber($0), unit: "W") })
        #expect(
            Self.readings(objects, of: HealthConnectTypes.stepsCadence).map(\.quantity)
                == [162, 166].map { Quantity(value: ExportNumber($0), unit: "count/min") })
        let pedal = Self.readings(objects, of: "HKQuantityTypeIdentifierCyclingCadence")
        #expect(pedal.map(\.quantity) == [85, 90].map { Quantity(value: ExportNumber($0), unit: "count/min") })
        #expect(pedal.first?.sample.sourceRevision.source.name == "Fit")
        #expect(Set(speed.map(\.sample.uuid)).count == 3)
    }

    /// The strength session (45, HealthKit's traditional strength training) holds its three
    /// segments as segment events: 07:40–07:45 squats (55) ×12, 5 min; 07:45–07:47 rest (66),
    /// 2 min; 07:47–07:52 pull-ups (50) ×8, 5 min. The run has laps and no segments.
    @Test func segmentsAreSegmentEvents() throws {
        let fixture = try HealthConnectFixture.make()
        let workouts = Self.workouts(try HealthConnectReaderTests.read(fixture.database).objects)
        #expect(workouts.count == 2)
        let weights = try #require(workouts.last)
        #expect(weights.workoutActivityType.name == "HKWorkoutActivityTypeTraditionalStrengthTraining")
        #expect(weights.workoutEvents.map(\.type.name) == Array(repeating: "HKWorkoutEventTypeSegment", count: 3))
        #expect(weights.workoutEvents.map { $0.duration?.value.value } == [5, 2, 5])
        #expect(weights.workoutEvents.map { $0.metadata["HealthConnectExerciseSegmentType"] } == [.string("55"), .string("66"), .string("50")])
        #expect(weights.workoutEvents.map { $0.metadata["HealthConnectRepetitions"] } == [.string("12"), .string("0"), .string("8")])
        // 2026-01-07 07:40 at +01:00 is 06:40 UTC: 1,767,571,200 + 172,800 + 24,000 s.
        #expect(weights.workoutEvents.first?.date == ExportTimestamp(secondsSince1970: 1_767_768_000, utcOffsetSeconds: 3600))
        #expect(workouts.first?.workoutEvents.map(\.type.name) == ["HKWorkoutEventTypeLap", "HKWorkoutEventTypeLap"])
    }

    /// A segment among laps is listed in time order, as HealthKit's events are: a segment of the
    /// run at 18:03 falls between its laps at 18:00 and 18:06. A segment type that is no number
    /// is refused with its place (the session's row).
    @Test func segmentsAmongLapsAndDamagedOnes() throws {
        let fixture = try HealthConnectFixture.make()
        // 18:03 on the 6th at +01:00: 1,767,718,800 + 180 s, in milliseconds.
        let interleaved = try HealthConnectFixture.altered(
            fixture.database,
            sql: "INSERT INTO exercise_segments_table VALUES (1, 1767718980000, 1767719340000, 16, 0);")
        let run = try #require(Self.workouts(try HealthConnectReaderTests.read(interleaved).objects).first)
        #expect(run.workoutEvents.map(\.type.name) == ["HKWorkoutEventTypeLap", "HKWorkoutEventTypeSegment", "HKWorkoutEventTypeLap"])

        let damaged = try HealthConnectFixture.altered(fixture.database, sql: "UPDATE exercise_segments_table SET segment_type = 'squat' WHERE segment_type = 55;")
        let error = #expect(throws: HealthConnectError.self) { try HealthConnectReaderTests.read(damaged) }
        #expect(error?.description == "exercise_segments_table row 2, column segment_type: not a whole number")
    }

    /// A route point whose altitude and vertical accuracy the app did not give holds AOSP's
    /// "not set" (Double.MIN_VALUE) there: no altitude and no accuracy, where 4.9 × 10⁻³²⁴ m
    /// was written before. The other points keep theirs (34, 35, 36, 37 m).
    @Test func aRoutePointWithoutAltitude() throws {
        let fixture = try HealthConnectFixture.make()
        let unset = try HealthConnectFixture.altered(
            fixture.database,
            sql: "UPDATE exercise_route_table SET altitude = 5e-324, vertical_accuracy = 5e-324 WHERE altitude = 35;")
        let run = try #require(Self.workouts(try HealthConnectReaderTests.read(unset).objects).first)
        let points = try #require(run.routes.first?.locations)
        #expect(points.map { $0.altitude?.value } == [34, nil, 36, 37])
        #expect(points.map { $0.verticalAccuracy?.value } == [3, nil, 3, 3])
        #expect(points.map { $0.horizontalAccuracy?.value } == [5, 5, 5, 5])
    }
}
