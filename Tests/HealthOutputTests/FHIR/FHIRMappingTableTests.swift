import Foundation
import HealthJSON
import Testing
import HealthModel
import HealthTestSupport
@testable import HealthOutput

/// healthport's FHIR code table (`FHIRCodeTable`) against HealthKitOnFHIR's own file, read from
/// `../shared/data/healthkitonfhir` with Foundation's JSON parser (never copied into the
/// repository; the tests that need it are skipped without it, and CI has it), and against what
/// healthport writes.
@Suite struct FHIRMappingTableTests {
    static var sharedTable: URL { Fixtures.shared.appendingPathComponent("data/healthkitonfhir/HKSampleMapping.json") }
    static var hasSharedTable: Bool { FileManager.default.fileExists(atPath: sharedTable.path) }

    /// HealthKitOnFHIR's `HKSampleMapping.json`, as its authors wrote it.
    static func healthKitOnFHIRFile() throws -> [String: Any] {
        let data = try Data(contentsOf: sharedTable)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// One object's Observation, as the encoder writes it, parsed.
    static func observation(_ object: HealthObject, encoder: FHIRObservationEncoder = FHIRObservationEncoder()) throws -> [String: Any] {
        let out = OutputBuffer(descriptor: -1, capacity: 1 << 16)
        #expect(encoder.write(object, to: out))
        let bytes = out.takeBytes()
        #expect(bytes.last == 0x0A)
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    static func sample(_ type: String, start: String = "2024-03-01 08:00:00 +0100", end: String? = nil, metadata: Metadata = Metadata())
        -> SampleAttributes
    {
        SampleAttributes(
            uuid: ObjectUUID(high: 0x1234, low: 0x5678), sampleType: ObjectType(recordType: type),
            sourceRevision: SourceRevision(source: Source(name: "Watch"), version: "10.1"),
            startDate: ExportTimestamp.parse(start)!, endDate: ExportTimestamp.parse(end ?? start)!, metadata: metadata)
    }

    static func quantity(_ type: String, _ value: String, _ unit: String) -> HealthObject {
        .quantitySample(QuantitySample(sample: sample(type), quantity: Quantity(value: ExportNumber.parse(value)!, unit: unit)))
    }

    static func codings(_ value: Any?) -> [[String: String]] {
        ((value as? [String: Any])?["coding"] as? [[String: Any]] ?? []).map { $0.compactMapValues { $0 as? String } }
    }

    static func tableCodings(_ entry: [String: Any]) -> [[String: String]] {
        (entry["codings"] as? [[String: Any]] ?? []).map { $0.compactMapValues { $0 as? String } }
    }

    /// Type by type, the table holds HealthKitOnFHIR's codings, categories and unit, in its
    /// order (every quantity, category and correlation type, the workout and the ECG's parts).
    @Test(.enabled(if: hasSharedTable, "needs HealthKitOnFHIR's file in ../shared/data/healthkitonfhir"))
    func theTableAgreesWithHealthKitOnFHIRsOwnFile() throws {
        let file = try Self.healthKitOnFHIRFile()
        func same(_ mapping: FHIRTypeMapping?, _ entry: [String: Any]?, _ what: String) {
            guard let mapping, let entry else {
                Issue.record("\(what): in one table only")
                return
            }
            #expect(mapping.codings.map(Self.dictionary) == Self.tableCodings(entry), "\(what)")
            #expect(mapping.categories.map(Self.dictionary) == ((entry["categories"] as? [[String: String]]) ?? []), "\(what)")
            let unit = entry["unit"] as? [String: String]
            #expect(mapping.unit?.healthKitUnit == unit?["hkunit"] && mapping.unit?.unit == unit?["unit"], "\(what)")
            #expect(mapping.unit?.system == unit?["system"] && mapping.unit?.code == unit?["code"], "\(what)")
        }
        let mapping = FHIRMapping.healthKitOnFHIR
        for (section, types) in [
            ("HKQuantitySamples", mapping.quantityTypes), ("HKCategorySamples", mapping.categoryTypes), ("HKCorrelations", mapping.correlationTypes),
        ] {
            let entries = try #require(file[section] as? [String: [String: Any]])
            #expect(Set(entries.keys) == Set(types.keys), "\(section)")
            for (type, entry) in entries { same(types[type], entry, type) }
        }
        same(mapping.workout, file["HKWorkout"] as? [String: Any], "HKWorkout")
        let ecg = try #require(file["HKElectrocardiogram"] as? [String: Any])
        same(mapping.electrocardiogram.type, ecg, "HKElectrocardiogram")
        for (part, written) in [
            ("numberOfVoltageMeasurements", mapping.electrocardiogram.numberOfVoltageMeasurements),
            ("samplingFrequency", mapping.electrocardiogram.samplingFrequency), ("averageHeartRate", mapping.electrocardiogram.averageHeartRate),
            ("voltageMeasurements", mapping.electrocardiogram.voltageMeasurements),
        ] {
            same(written, ecg[part] as? [String: Any], part)
        }
        #expect(mapping.electrocardiogram.classification.map(Self.dictionary) == Self.tableCodings(ecg["classification"] as? [String: Any] ?? [:]))
        #expect(mapping.electrocardiogram.voltagePrecision == ecg["voltagePrecision"] as? Int)
    }

    static func dictionary(_ coding: FHIRCoding) -> [String: String] {
        var result = ["system": coding.system, "code": coding.code]
        if let display = coding.display { result["display"] = display }
        return result
    }

    @Test func theTableHoldsWhatItsProvenanceSays() throws {
        // The counts docs/reference/fhir-codes.md quotes.
        let mapping = FHIRMapping.healthKitOnFHIR
        #expect(mapping.quantityTypes.count == 119)
        #expect(mapping.categoryTypes.count == 68)
        #expect(mapping.correlationTypes.count == 2)
        #expect(mapping.workoutActivityValues.count == 84)
        #expect(mapping.workoutActivityValues["HKWorkoutActivityTypeCooldown"] == "coolDown")
        #expect(mapping.electrocardiogram.voltagePrecision == 3)
    }

    /// For every quantity type the table maps: the codes in order, the unit's text, system and
    /// code, and the value (here already in the table's unit) unchanged, but a percentage's,
    /// written in hundredths.
    @Test(.enabled(if: hasSharedTable, "needs HealthKitOnFHIR's file in ../shared/data/healthkitonfhir"))
    func everyMappedQuantityTypeCarriesTheTablesCodesAndUnit() throws {
        let table = try #require(try Self.healthKitOnFHIRFile()["HKQuantitySamples"] as? [String: [String: Any]])
        let encoder = FHIRObservationEncoder()
        var loinc = 0
        for (type, entry) in table.sorted(by: { $0.key < $1.key }) {
            let unit = try #require(entry["unit"] as? [String: String])
            let observation = try Self.observation(Self.quantity(type, "12.5", try #require(unit["hkunit"])), encoder: encoder)
            #expect(Self.codings(observation["code"]) == Self.tableCodings(entry), "\(type)")
            let value = try #require(observation["valueQuantity"] as? [String: Any], "\(type)")
            #expect(value["unit"] as? String == unit["unit"], "\(type)")
            #expect(value["system"] as? String == unit["system"], "\(type)")
            #expect(value["code"] as? String == unit["code"], "\(type)")
            // HealthKit's percent is a fraction, UCUM's `%` hundredths: 12.5 of it is 1250 %.
            #expect((value["value"] as? NSNumber)?.doubleValue == (unit["hkunit"] == "%" ? 1250 : 12.5), "\(type)")
            if Self.tableCodings(entry).contains(where: { $0["system"] == "http://loinc.org" }) { loinc += 1 }
        }
        // Counted by hand from the table: 27 of its 119 quantity types have a LOINC code.
        #expect(loinc == 27)
        #expect(encoder.tally.count(.loinc) == 27)
        #expect(encoder.tally.count(.healthKit) == 92)
        #expect(encoder.tally.count(.fallback) == 0)
    }

    /// Every unit the catalogue gives a mapped type converts to the table's unit, so a real
    /// export's samples get the table's UCUM code; but one, whose table unit (`dBHL`, hearing
    /// level) is not the quantity HealthKit stores (`dBASPL`, sound pressure): HealthKitOnFHIR
    /// fails on it on the phone, healthport writes it as exported.
    @Test func everyMappedTypesHealthKitUnitConvertsToTheTablesUnit() throws {
        var notConvertible: [String] = []
        for (type, entry) in FHIRMapping.healthKitOnFHIR.quantityTypes {
            guard let canonical = TypeCatalogue.entry(for: type)?.canonicalUnit, let unit = entry.unit else { continue }
            if FHIRUnitConversion(from: canonical, to: unit.healthKitUnit) == nil { notConvertible.append(type) }
        }
        #expect(notConvertible == ["HKQuantityTypeIdentifierEnvironmentalSoundReduction"])
    }

    /// HealthKit's percent is a fraction: 0.97 of oxygen saturation is 97 in UCUM's `%`, the
    /// hundredths a clinic reads (0.97 % would be a dying patient); body fat 0.215 is 21.5 %.
    @Test func aPercentIsWrittenInHundredths() throws {
        let percent = try #require(FHIRUnitConversion(from: "%", to: "%"))
        #expect(percent.converted(ExportNumber(0.97)) == "97")
        #expect(percent.converted(ExportNumber(0.215)) == "21.5")
        let saturation = try #require(FHIRMapping.healthKitOnFHIR.quantityTypes["HKQuantityTypeIdentifierOxygenSaturation"]?.unit)
        #expect(saturation.healthKitUnit == "%")
        #expect(FHIRUnitConversion(from: "count/min", to: "count/min")?.converted(ExportNumber(72)) == "72")
    }

    @Test(.enabled(if: hasSharedTable, "needs HealthKitOnFHIR's file in ../shared/data/healthkitonfhir"))
    func everyMappedCategoryAndCorrelationTypeCarriesTheTablesCodes() throws {
        let table = try Self.healthKitOnFHIRFile()
        let categories = try #require(table["HKCategorySamples"] as? [String: [String: Any]])
        for (type, entry) in categories {
            let object = HealthObject.categorySample(CategorySample(sample: Self.sample(type), value: .notApplicable))
            #expect(Self.codings(try Self.observation(object)["code"]) == Self.tableCodings(entry), "\(type)")
        }
        let correlations = try #require(table["HKCorrelations"] as? [String: [String: Any]])
        for (type, entry) in correlations {
            let object = HealthObject.correlation(Correlation(sample: Self.sample(type), objects: []))
            let observation = try Self.observation(object)
            #expect(Self.codings(observation["code"]) == Self.tableCodings(entry), "\(type)")
            let categories = (entry["categories"] as? [[String: String]]) ?? []
            let written = (observation["category"] as? [Any] ?? []).flatMap { Self.codings($0) }
            #expect(written == categories, "\(type)")
        }
    }

    @Test(.enabled(if: hasSharedTable, "needs HealthKitOnFHIR's file in ../shared/data/healthkitonfhir"))
    func workoutsAndECGsCarryTheTablesCodesAndCategories() throws {
        let table = try Self.healthKitOnFHIRFile()
        let workout = Workout(
            sample: Self.sample("HKWorkoutTypeIdentifier", end: "2024-03-01 08:30:00 +0100"),
            workoutActivityType: WorkoutActivityType(name: "HKWorkoutActivityTypeCooldown"),
            duration: Quantity(value: ExportNumber.parse("0.5")!, unit: "hr"))
        var w = workout
        w.sample.sampleType = .workout
        let observation = try Self.observation(.workout(w))
        let entry = try #require(table["HKWorkout"] as? [String: Any])
        #expect(Self.codings(observation["code"]) == Self.tableCodings(entry))
        #expect((observation["category"] as? [Any] ?? []).flatMap { Self.codings($0) } == (entry["categories"] as? [[String: String]]))
        #expect(Self.codings(observation["valueCodeableConcept"]).first?["code"] == "coolDown")
        // 0.5 hr is 30 min, by hand.
        let duration = try #require((observation["component"] as? [[String: Any]])?.first)
        #expect(((duration["valueQuantity"] as? [String: Any])?["value"] as? NSNumber)?.doubleValue == 30)
        #expect(Self.codings(duration["code"]).first?["code"] == "HKWorkout.duration")

        var ecg = Electrocardiogram(file: "electrocardiograms/ecg.csv")
        ecg.recordedDate = ExportTimestamp.parse("2024-01-05 10:32:18 +0100")
        ecg.samplingFrequency = 500
        ecg.classification = "Atrial Fibrillation"
        ecg.classificationRawValue = 2
        ecg.unit = "µV"
        // 25 seconds at 500 Hz: batches of 5000, 5000 and 2500 measurements.
        ecg.voltages = (0..<12_500).map { Double($0 % 7) - 3.25 }
        let written = try Self.observation(.electrocardiogram(ecg))
        let ecgEntry = try #require(table["HKElectrocardiogram"] as? [String: Any])
        #expect(Self.codings(written["code"]) == Self.tableCodings(ecgEntry))
        #expect((written["effectivePeriod"] as? [String: String])?["end"] == "2024-01-05T10:32:43+01:00")
        let components = try #require(written["component"] as? [[String: Any]])
        let batches = components.compactMap { $0["valueSampledData"] as? [String: Any] }
        #expect(batches.map { ($0["data"] as? String)?.split(separator: " ").count } == [5000, 5000, 2500])
        #expect((batches.first?["period"] as? NSNumber)?.doubleValue == 2)
        #expect((batches.first?["data"] as? String)?.hasPrefix("-3.250 -2.250 -1.250 -0.250 0.750") == true)
        let classification = components.first { Self.codings($0["code"]).first?["code"] == "HKElectrocardiogram.Classification" }
        #expect(Self.codings(classification?["valueCodeableConcept"]).first == [
            "system": "https://developer.apple.com/documentation/healthkit/classification", "code": "2", "display": "atrial fibrillation",
        ])
    }

    /// Values in another unit than the table's, converted as HealthKit's `doubleValue(for:)`
    /// would; every expected figure worked out by hand.
    @Test(arguments: [
        // 72.6 kg / 0.45359237 kg per lb = 160.0556023462208…: 15 significant digits.
        ("HKQuantityTypeIdentifierBodyMass", "72.6", "kg", "160.055602346221"),
        // Powers of ten move the decimal point: no binary noise (0.07 × 1000 is 70.00000000000001).
        ("HKQuantityTypeIdentifierDistanceWalkingRunning", "0.07", "km", "70"),
        ("HKQuantityTypeIdentifierDistanceWalkingRunning", "1.2345", "km", "1234.5"),
        ("HKQuantityTypeIdentifierDietaryWater", "250", "mL", "0.25"),
        ("HKQuantityTypeIdentifierDietaryCaffeine", "0.095", "g", "95"),
        // 180 cm / 2.54 cm per in = 70.866141732283464…
        ("HKQuantityTypeIdentifierHeight", "180", "cm", "70.8661417322835"),
        // (98.6 − 32) × 5 / 9 = 37.
        ("HKQuantityTypeIdentifierBodyTemperature", "98.6", "degF", "37"),
        // 1 mi = 1609.344 m.
        ("HKQuantityTypeIdentifierDistanceCycling", "2", "mi", "3218.688"),
        // Already in the table's unit: the exported text, as it is.
        ("HKQuantityTypeIdentifierHeartRate", "77.8002", "count/min", "77.8002"),
        ("HKQuantityTypeIdentifierStepCount", "1.5e3", "count", "1.5e3"),
    ])
    func valuesAreConvertedToTheTablesUnit(type: String, value: String, unit: String, expected: String) throws {
        let out = OutputBuffer(descriptor: -1, capacity: 4096)
        let encoder = FHIRObservationEncoder()
        #expect(encoder.write(Self.quantity(type, value, unit), to: out))
        let line = String(decoding: out.takeBytes(), as: UTF8.self)
        #expect(line.contains("\"valueQuantity\":{\"value\":\(expected),"), "\(line)")
    }

    @Test func aUnitThatDoesNotConvertIsWrittenAsExported() throws {
        let observation = try Self.observation(Self.quantity("HKQuantityTypeIdentifierBodyMass", "3", "count"))
        let value = try #require(observation["valueQuantity"] as? [String: Any])
        #expect(value["unit"] as? String == "count")
        #expect(value["code"] == nil)
        #expect((value["value"] as? NSNumber)?.doubleValue == 3)
    }

    @Test func categoryValuesAreCodedAsHealthKitOnFHIRCodesThem() throws {
        func value(_ type: String, _ exported: String?, metadata: Metadata = Metadata()) throws -> [String: Any] {
            let category = CategorySample(
                sample: Self.sample(type, metadata: metadata), value: exported.map(CategoryValue.interpret) ?? .notApplicable)
            return try Self.observation(.categorySample(category))
        }
        let rem = try value("HKCategoryTypeIdentifierSleepAnalysis", "HKCategoryValueSleepAnalysisAsleepREM")
        #expect(Self.codings(rem["valueCodeableConcept"]) == [[
            "system": "https://developer.apple.com/documentation/healthkit/hkcategoryvaluesleepanalysis", "code": "5", "display": "asleep REM",
        ]])
        // The legacy name is raw value 1, whose case is asleepUnspecified today.
        let legacy = try value("HKCategoryTypeIdentifierSleepAnalysis", "HKCategoryValueSleepAnalysisAsleep")
        #expect(Self.codings(legacy["valueCodeableConcept"]).first?["display"] == "asleep unspecified")
        let symptom = try value("HKCategoryTypeIdentifierHeadache", "HKCategoryValueSeverityModerate")
        #expect(Self.codings(symptom["valueCodeableConcept"]).first?["code"] == "3")
        #expect(Self.codings(symptom["valueCodeableConcept"]).first?["system"] == "https://developer.apple.com/documentation/healthkit/hkcategoryvalueseverity")
        // A type whose value carries nothing: the type's identifier as the value.
        #expect(try value("HKCategoryTypeIdentifierMindfulSession", nil)["valueString"] as? String == "HKCategoryTypeIdentifierMindfulSession")
        // A heart-rate event's threshold is a component coded as heart rate.
        let event = try value(
            "HKCategoryTypeIdentifierHighHeartRateEvent", nil,
            metadata: Metadata([MetadataEntry(key: "HKHeartRateEventThreshold", value: .interpret("120 count/min", key: "HKHeartRateEventThreshold"))]))
        let threshold = try #require((event["component"] as? [[String: Any]])?.first)
        #expect(Self.codings(threshold["code"]).map { $0["code"] } == ["8867-4", "HKQuantityTypeIdentifierHeartRate"])
        #expect(((threshold["valueQuantity"] as? [String: Any])?["value"] as? NSNumber)?.doubleValue == 120)
        let flow = try value(
            "HKCategoryTypeIdentifierMenstrualFlow", "HKCategoryValueMenstrualFlowLight",
            metadata: Metadata([MetadataEntry(key: "HKMenstrualCycleStart", value: .interpret("1", key: "HKMenstrualCycleStart"))]))
        let start = try #require((flow["component"] as? [[String: Any]])?.first)
        #expect(start["valueBoolean"] as? Bool == true)
        #expect(Self.codings(flow["valueCodeableConcept"]).first?["display"] == "light")
    }

    @Test func aTypeTheTableDoesNotMapIsCodedByItsHealthKitIdentifier() throws {
        let encoder = FHIRObservationEncoder()
        let observation = try Self.observation(Self.quantity("HKQuantityTypeIdentifierFutureMetric", "4.25", "count/min"), encoder: encoder)
        #expect(Self.codings(observation["code"]) == [["system": "http://developer.apple.com/documentation/healthkit", "code": "HKQuantityTypeIdentifierFutureMetric"]])
        let value = try #require(observation["valueQuantity"] as? [String: Any])
        #expect(value["unit"] as? String == "count/min")
        #expect(value["code"] as? String == "/min")
        #expect((value["value"] as? NSNumber)?.doubleValue == 4.25)
        #expect(encoder.tally.counts == ["quantitySample": [.fallback: 1]])
    }

    @Test func timesKeepTheExportsOffset() throws {
        let instant = try Self.observation(Self.quantity("HKQuantityTypeIdentifierHeartRate", "60", "count/min"))
        #expect(instant["effectiveDateTime"] as? String == "2024-03-01T08:00:00+01:00")
        #expect(instant["effectivePeriod"] == nil)
        let object = HealthObject.quantitySample(
            QuantitySample(
                sample: Self.sample("HKQuantityTypeIdentifierStepCount", start: "2024-03-01 23:59:00 -0530", end: "2024-03-02 00:04:00 -0530"),
                quantity: Quantity(value: ExportNumber.parse("12")!, unit: "count")))
        let period = try Self.observation(object)
        #expect(period["effectivePeriod"] as? [String: String] == ["start": "2024-03-01T23:59:00-05:30", "end": "2024-03-02T00:04:00-05:30"])
        #expect(period["id"] as? String == "00000000-0000-1234-0000-000000005678")
    }

    @Test func displayTextsFollowHealthKitOnFHIRsRule() {
        #expect(FHIRMapping.ValueEnum.display(caseName: "asleepREM") == "asleep REM")
        #expect(FHIRMapping.ValueEnum.display(caseName: "luteinizingHormoneSurge") == "luteinizing hormone surge")
        #expect(FHIRMapping.ValueEnum.display(caseName: "eggWhite") == "egg white")
        #expect(FHIRMapping.ValueEnum.display(caseName: "none") == "none")
    }

    @Test func metadataKeysArePercentEncodedInTheirURL() {
        #expect(FHIRJSON.urlSegment("Health Mate App Version") == "Health%20Mate%20App%20Version")
        #expect(FHIRJSON.urlSegment("HKTimeZone") == "HKTimeZone")
        #expect(FHIRJSON.urlSegment("é/x") == "%C3%A9%2Fx")
    }
}
