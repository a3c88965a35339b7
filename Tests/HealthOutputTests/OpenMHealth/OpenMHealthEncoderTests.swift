import Foundation
import HealthJSON
import HealthModel
import Testing
@testable import HealthOutput

/// Open mHealth data points, one object at a time: the header, each body's shape and unit, the
/// values converted by factors worked by hand here, and what is left out and counted.
@Suite struct OpenMHealthEncoderTests {
    static let watch = Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardwareVersion: "Watch6,2", softwareVersion: "10.2")
    static let instant = ExportTimestamp.parse("2024-03-01 08:00:00 +0100")!
    static let created = ExportTimestamp.parse("2024-03-01 08:00:30 +0100")!

    static func sample(
        _ type: String, start: ExportTimestamp = instant, end: ExportTimestamp = instant, device: Device? = watch,
        metadata: Metadata = Metadata(), created: ExportTimestamp? = created
    ) -> SampleAttributes {
        SampleAttributes(
            uuid: ObjectUUID(high: 1, low: 2), sampleType: ObjectType(recordType: type),
            sourceRevision: SourceRevision(source: Source(name: "Watch"), version: "10.2"), device: device, creationDate: created,
            startDate: start, endDate: end, metadata: metadata)
    }

    static func quantity(_ type: String, _ value: String, _ unit: String, start: ExportTimestamp = instant, end: ExportTimestamp = instant,
                         metadata: Metadata = Metadata()) -> HealthObject {
        .quantitySample(
            QuantitySample(
                sample: sample("HKQuantityTypeIdentifier" + type, start: start, end: end, metadata: metadata),
                quantity: Quantity(value: ExportNumber.parse(value)!, unit: unit)))
    }

    /// The lines written for `objects`, and the encoder (for its tally).
    static func encode(_ objects: [HealthObject]) -> (text: String, encoder: OpenMHealthEncoder) {
        let encoder = OpenMHealthEncoder()
        let out = OutputBuffer(descriptor: -1, capacity: 4096)
        for object in objects { encoder.write(object, to: out) }
        return (String(decoding: out.takeBytes(), as: UTF8.self), encoder)
    }

    static func point(_ object: HealthObject) throws -> [String: Any] {
        let text = encode([object]).text
        #expect(text.hasSuffix("\n") && text.filter { $0 == "\n" }.count == 1)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func body(_ object: HealthObject) throws -> [String: Any] {
        try #require(try point(object)["body"] as? [String: Any])
    }

    static func unitValue(_ member: Any?) -> String? {
        guard let member = member as? [String: Any], let value = member["value"] as? NSNumber, let unit = member["unit"] as? String else {
            return nil
        }
        return "\(value) \(unit)"
    }

    @Test func aHeartRateIsOneLineWithItsHeaderAndBodyByteForByte() {
        let line = Self.encode([Self.quantity("HeartRate", "72", "count/min")]).text
        #expect(
            line
                == #"{"header":{"uuid":"00000000-0000-0001-0000-000000000002","user_id":"D6568933-1984-8699-8A74-AD094ED81941","#
                + #""schema_id":{"namespace":"omh","name":"heart-rate","version":"2.0"},"#
                + #""source_creation_date_time":"2024-03-01T08:00:30+01:00","modality":"sensed","external_datasheets":["#
                + #"{"datasheet_type":"source","datasheet_reference":"Watch"},{"datasheet_type":"device","datasheet_reference":"Apple Watch"},"#
                + #"{"datasheet_type":"manufacturer","datasheet_reference":"Apple Inc."},{"datasheet_type":"model","datasheet_reference":"Watch"},"#
                + #"{"datasheet_type":"hardware_version","datasheet_reference":"Watch6,2"},{"datasheet_type":"software_version","datasheet_reference":"10.2"}]},"#
                + #""body":{"heart_rate":{"value":72,"unit":"beats/min"},"effective_time_frame":{"date_time":"2024-03-01T08:00:00+01:00"}}}"#
                + "\n")
    }

    @Test func aSampleTheUserEnteredIsSelfReportedAndOneWithoutACreationDateIsCreatedAtItsEnd() throws {
        let entered = Metadata([MetadataEntry(key: "HKWasUserEntered", value: .number(ExportNumber.parse("1")!))])
        let header = try #require(try Self.point(Self.quantity("BodyMass", "72.5", "kg", metadata: entered))["header"] as? [String: Any])
        #expect(header["modality"] as? String == "self-reported")
        let end = ExportTimestamp.parse("2024-03-01 08:10:00 +0100")!
        let object = HealthObject.quantitySample(
            QuantitySample(
                sample: Self.sample("HKQuantityTypeIdentifierStepCount", end: end, device: nil, created: nil),
                quantity: Quantity(value: ExportNumber.parse("10")!, unit: "count")))
        let second = try #require(try Self.point(object)["header"] as? [String: Any])
        #expect(second["modality"] as? String == "sensed")
        #expect(second["source_creation_date_time"] as? String == "2024-03-01T08:10:00+01:00")
        // No device: the source alone.
        #expect((second["external_datasheets"] as? [[String: String]])?.map { $0["datasheet_type"]! } == ["source"])
    }

    @Test func valuesAreWrittenInTheUnitsTheSchemasTake() throws {
        // HealthKit's percent is a fraction: 0.97 is 97 %.
        #expect(Self.unitValue(try Self.body(Self.quantity("OxygenSaturation", "0.97", "%"))["oxygen_saturation"]) == "97 %")
        #expect(Self.unitValue(try Self.body(Self.quantity("RespiratoryRate", "14.5", "count/min"))["respiratory_rate"]) == "14.5 breaths/min")
        // Units the schema lists are kept with the schema's name for them.
        #expect(Self.unitValue(try Self.body(Self.quantity("BodyTemperature", "98.6", "degF"))["body_temperature"]) == "98.6 F")
        #expect(Self.unitValue(try Self.body(Self.quantity("BodyTemperature", "36.6", "degC"))["body_temperature"]) == "36.6 C")
        #expect(Self.unitValue(try Self.body(Self.quantity("BodyMass", "160.2", "lb"))["body_weight"]) == "160.2 lb")
        #expect(Self.unitValue(try Self.body(Self.quantity("BloodGlucose", "95", "mg/dL"))["blood_glucose"]) == "95 mg/dL")
        // Others are converted: 100 kJ / 4.184 kJ per kcal = 23.90057361376673…, 15 digits.
        let calories = try Self.body(Self.quantity("ActiveEnergyBurned", "100", "kJ", end: Self.created))
        #expect(Self.unitValue(calories["kcal_burned"]) == "23.9005736137667 kcal")
        #expect(
            Self.unitValue(try Self.body(Self.quantity("BloodGlucose", "5.5", "mmol<180.15588000005408>/L"))["blood_glucose"])
                == "5.5 mmol/L")
        // Stones are not among the schema's units: 11 st × 6.35029318 kg = 69.85322498 kg.
        #expect(Self.unitValue(try Self.body(Self.quantity("BodyMass", "11", "st"))["body_weight"]) == "69.85322498 kg")
        // Grams are kept too: the schema lists g.
        #expect(Self.unitValue(try Self.body(Self.quantity("BodyMass", "72500", "g"))["body_weight"]) == "72500 g")
    }

    @Test func stepsAndCaloriesAreIntervalsEvenAtAnInstantAndHeartRateAnInstant() throws {
        let steps = try Self.body(Self.quantity("StepCount", "120", "count"))
        #expect(Self.unitValue(steps["step_count"]) == "120 steps")
        let frame = try #require(steps["effective_time_frame"] as? [String: Any])
        #expect(frame["date_time"] == nil)
        #expect(
            frame["time_interval"] as? [String: String]
                == ["start_date_time": "2024-03-01T08:00:00+01:00", "end_date_time": "2024-03-01T08:00:00+01:00"])
        let heart = try #require(try Self.body(Self.quantity("HeartRate", "60", "count/min"))["effective_time_frame"] as? [String: String])
        #expect(heart == ["date_time": "2024-03-01T08:00:00+01:00"])
    }

    @Test func restingHeartRateIsAnAverageAtRest() throws {
        let body = try Self.body(Self.quantity("RestingHeartRate", "52", "count/min"))
        #expect(Self.unitValue(body["heart_rate"]) == "52 beats/min")
        #expect(body["descriptive_statistic"] as? String == "average")
        #expect(body["temporal_relationship_to_physical_activity"] as? String == "at rest")
    }

    static func bloodPressure(systolic: String?, diastolic: String?) -> HealthObject {
        var members: [CorrelatedSample] = []
        if let systolic {
            members.append(
                .quantity(
                    QuantitySample(
                        sample: sample("HKQuantityTypeIdentifierBloodPressureSystolic"),
                        quantity: Quantity(value: ExportNumber.parse(systolic)!, unit: "mmHg"))))
        }
        if let diastolic {
            members.append(
                .quantity(
                    QuantitySample(
                        sample: sample("HKQuantityTypeIdentifierBloodPressureDiastolic"),
                        quantity: Quantity(value: ExportNumber.parse(diastolic)!, unit: "mmHg"))))
        }
        return .correlation(Correlation(sample: sample("HKCorrelationTypeIdentifierBloodPressure"), objects: members))
    }

    @Test func aBloodPressureCorrelationIsOnePointAndOneWithoutADiastolicValueIsCounted() throws {
        let point = try Self.point(Self.bloodPressure(systolic: "120", diastolic: "80"))
        let schema = try #require((point["header"] as? [String: Any])?["schema_id"] as? [String: String])
        #expect(schema == ["namespace": "omh", "name": "blood-pressure", "version": "4.0"])
        let body = try #require(point["body"] as? [String: Any])
        #expect(Self.unitValue(body["systolic_blood_pressure"]) == "120 mmHg")
        #expect(Self.unitValue(body["diastolic_blood_pressure"]) == "80 mmHg")

        let (text, encoder) = Self.encode([Self.bloodPressure(systolic: "120", diastolic: nil)])
        #expect(text.isEmpty)
        #expect(encoder.tally.leftOut == ["blood pressure without both a systolic and a diastolic value": 1])
    }

    @Test func aWorkoutIsAPhysicalActivityWithItsDistanceAndEnergy() throws {
        let end = ExportTimestamp.parse("2024-03-01 08:40:00 +0100")!
        let workout = HealthObject.workout(
            Workout(
                sample: Self.sample("HKWorkoutTypeIdentifier", end: end), workoutActivityType: WorkoutActivityType(name: "HKWorkoutActivityTypeRunning"),
                totalDistance: Quantity(value: ExportNumber.parse("5.2")!, unit: "km"),
                totalEnergyBurned: Quantity(value: ExportNumber.parse("320")!, unit: "kcal")))
        let body = try Self.body(workout)
        #expect(body["activity_name"] as? String == "Running")
        #expect(Self.unitValue(body["distance"]) == "5.2 km")
        #expect(Self.unitValue(body["kcal_burned"]) == "320 kcal")
        let interval = (body["effective_time_frame"] as? [String: Any])?["time_interval"] as? [String: String]
        #expect(interval == ["start_date_time": "2024-03-01T08:00:00+01:00", "end_date_time": "2024-03-01T08:40:00+01:00"])
    }

    @Test func whatNoSchemaTakesIsLeftOutAndCountedByReason() {
        let sleep = HealthObject.categorySample(
            CategorySample(
                sample: Self.sample("HKCategoryTypeIdentifierSleepAnalysis"),
                value: CategoryValue(rawValue: 3, name: "HKCategoryValueSleepAnalysisAsleepCore")))
        let (text, encoder) = Self.encode([
            Self.quantity("HeartRateVariabilitySDNN", "45", "ms"), Self.quantity("HeartRateVariabilitySDNN", "50", "ms"), sleep,
            // A heart rate in a unit that is not a rate is not guessed at.
            Self.quantity("HeartRate", "60", "kg"),
            Self.quantity("HeartRate", "60", "count/min"),
        ])
        #expect(text.filter { $0 == "\n" }.count == 1)
        #expect(encoder.tally.written == ["omh:heart-rate:2.0": 1])
        #expect(
            encoder.tally.leftOut == [
                "HKQuantityTypeIdentifierHeartRateVariabilitySDNN (no Open mHealth schema)": 2,
                "sleep samples (stages of a night, not episodes: the nights are written as sleep episodes)": 1,
                "HKQuantityTypeIdentifierHeartRate in kg (does not convert to beats/min, the unit omh:heart-rate:2.0 takes)": 1,
            ])
        #expect(encoder.tally.lines == ["heart-rate 2.0: 1 data points"])
    }
}
