import HealthConnect
import HealthModel
import HealthTestSupport
import Testing

/// Temperatures, body composition, basal metabolic rate and the context of a measurement from
/// the fixture's rows (`make-fixture.py`), each value converted to HealthKit's unit by hand in
/// the comments, from the units AOSP stores (degrees Celsius, grams, watts, mmol/L) and the
/// codes of its `datatypes/` classes, never by the code under test.
@Suite struct HealthConnectBodyAndVitalsTests {
    static func quantities(_ path: String, of type: String) throws -> [QuantitySample] {
        try HealthConnectReaderTests.read(path).objects.compactMap { object -> QuantitySample? in
            guard case .quantitySample(let sample) = object, sample.sample.sampleType.identifier == type else { return nil }
            return sample
        }
    }

    /// Basal body temperatures in degrees Celsius as stored: 36.45 taken in the mouth (Health
    /// Connect's 4, HealthKit's sensor location 6), 36.7 in the vagina (10, which HealthKit's
    /// list does not name: "other", 0). The body temperature, 37.2 in the ear (8), is HealthKit's
    /// ear (3). Each keeps its own code.
    @Test func temperaturesAndWhereTheyWereTaken() throws {
        let fixture = try HealthConnectFixture.make()
        let basal = try Self.quantities(fixture.database, of: "HKQuantityTypeIdentifierBasalBodyTemperature")
        #expect(basal.map(\.quantity) == [Quantity(value: ExportNumber(36.45), unit: "degC"), Quantity(value: ExportNumber(36.7), unit: "degC")])
        #expect(basal.map { $0.sample.metadata["HKBodyTemperatureSensorLocation"] } == [.number(ExportNumber(6)), .number(ExportNumber(0))])
        #expect(basal.map { $0.sample.metadata["HealthConnectMeasurementLocation"] } == [.string("4"), .string("10")])
        // 2026-01-06 06:30 at +01:00 is 05:30 UTC: 1,767,571,200 + 86,400 + 19,800 s.
        #expect(basal.first?.sample.startDate == ExportTimestamp(secondsSince1970: 1_767_677_400, utcOffsetSeconds: 3600))
        let body = try Self.quantities(fixture.database, of: "HKQuantityTypeIdentifierBodyTemperature")
        #expect(body.map(\.quantity.value.value) == [37.2])
        #expect(body.first?.sample.metadata["HKBodyTemperatureSensorLocation"] == .number(ExportNumber(3)))
        #expect(body.first?.sample.metadata["HealthConnectMeasurementLocation"] == .string("8"))

        // A location newer than the reader names no HealthKit location; its code is kept.
        let newer = try HealthConnectFixture.altered(
            fixture.database, sql: "UPDATE body_temperature_record_table SET measurement_location = 42;")
        let unknown = try #require(try Self.quantities(newer, of: "HKQuantityTypeIdentifierBodyTemperature").first)
        #expect(unknown.sample.metadata["HKBodyTemperatureSensorLocation"] == nil)
        #expect(unknown.sample.metadata["HealthConnectMeasurementLocation"] == .string("42"))
    }

    /// The scale's readings beside the weight: 3,100 g of bone is 3.1 kg, 41,200 g of body
    /// water 41.2 kg (types of Health Connect's own: HealthKit has neither); the basal metabolic
    /// rate, 83.68 W, is 83.68 J/s × 86,400 s/day ÷ 4,184 J/kcal = 0.02 × 86,400 = 1,728 kcal/d.
    @Test func bodyCompositionAndBasalMetabolicRate() throws {
        let fixture = try HealthConnectFixture.make()
        let bone = try Self.quantities(fixture.database, of: HealthConnectTypes.boneMass)
        #expect(bone.map(\.quantity.unit) == ["kg"])
        #expect(bone.count == 1 && abs(bone[0].quantity.value.value - 3.1) < 1e-9)
        let water = try Self.quantities(fixture.database, of: HealthConnectTypes.bodyWaterMass)
        #expect(water.map(\.quantity.unit) == ["kg"])
        #expect(water.count == 1 && abs(water[0].quantity.value.value - 41.2) < 1e-9)
        let rate = try Self.quantities(fixture.database, of: HealthConnectTypes.basalMetabolicRate)
        #expect(rate.map(\.quantity.unit) == ["kcal/d"])
        #expect(rate.count == 1 && abs(rate[0].quantity.value.value - 1728) < 1e-9)
        #expect(rate.first?.sample.metadata["HKWasUserEntered"] == .number(ExportNumber(1)))
    }

    /// Blood glucose, stored in mmol/L, in mg/dL (× 18.015588, glucose's molar mass over ten):
    /// 5.4 is 97.2841752 and 7.1 is 127.9106748. Before breakfast (relation 3) is HealthKit's
    /// preprandial (1), after lunch (4) its postprandial (2); the specimen (2, capillary blood),
    /// the relation and the meal (1 breakfast, 2 lunch) keep their codes, read from the TEXT
    /// columns AOSP declares for them.
    @Test func bloodGlucoseAndItsMeal() throws {
        let fixture = try HealthConnectFixture.make()
        let glucose = try Self.quantities(fixture.database, of: "HKQuantityTypeIdentifierBloodGlucose")
        #expect(glucose.map(\.quantity.unit) == ["mg/dL", "mg/dL"])
        #expect(zip(glucose.map(\.quantity.value.value), [97.2841752, 127.9106748]).allSatisfy { abs($0 - $1) < 1e-9 })
        #expect(glucose.map { $0.sample.metadata["HKBloodGlucoseMealTime"] } == [.number(ExportNumber(1)), .number(ExportNumber(2))])
        #expect(glucose.map { $0.sample.metadata["HealthConnectSpecimenSource"] } == [.string("2"), .string("2")])
        #expect(glucose.map { $0.sample.metadata["HealthConnectRelationToMeal"] } == [.string("3"), .string("4")])
        #expect(glucose.map { $0.sample.metadata["HealthConnectMealType"] } == [.string("1"), .string("2")])

        // Fasting (2) is not "just before a meal": no HealthKit meal time, the code kept. A
        // specimen that is no code is refused with its place.
        let fasting = try HealthConnectFixture.altered(fixture.database, sql: "UPDATE blood_glucose_record_table SET relation_to_meal = '2' WHERE row_id = 1;")
        let first = try #require(try Self.quantities(fasting, of: "HKQuantityTypeIdentifierBloodGlucose").first)
        #expect(first.sample.metadata["HKBloodGlucoseMealTime"] == nil)
        #expect(first.sample.metadata["HealthConnectRelationToMeal"] == .string("2"))
        let damaged = try HealthConnectFixture.altered(fixture.database, sql: "UPDATE blood_glucose_record_table SET specimen_source = 'finger' WHERE row_id = 2;")
        let error = #expect(throws: HealthConnectError.self) { try HealthConnectReaderTests.read(damaged) }
        #expect(error?.description == "blood_glucose_record_table row 2, column specimen_source: a code that is not a whole number")
    }

    /// The blood pressure was taken on the left upper arm (3) standing up (1): both codes on
    /// the correlation and on its systolic and diastolic samples (HealthKit has no key for
    /// either).
    @Test func bloodPressuresArmAndPosition() throws {
        let fixture = try HealthConnectFixture.make()
        let objects = try HealthConnectReaderTests.read(fixture.database).objects
        let pressure = objects.filter {
            ["HKCorrelationTypeIdentifierBloodPressure", "HKQuantityTypeIdentifierBloodPressureSystolic", "HKQuantityTypeIdentifierBloodPressureDiastolic"]
                .contains($0.objectType.identifier)
        }
        #expect(pressure.count == 3)
        for object in pressure {
            #expect(object.sampleAttributes?.metadata["HealthConnectMeasurementLocation"] == .string("3"))
            #expect(object.sampleAttributes?.metadata["HealthConnectBodyPosition"] == .string("1"))
        }
    }
}
