import Foundation
import HealthTestSupport
import Testing

/// The Health Connect record types read beside the activity ones, through the commands: cycle
/// tracking, temperatures, nutrition, body composition and the measurements' context. Every
/// figure is worked by hand from the fixture's rows (`Scripts/healthconnect/make-fixture.py`)
/// and the platform's codes and units (`docs/health-connect.md`), never by the code under test.
@Suite struct HealthConnectCycleAndNutritionTests {
    /// `convert --format ndjson` of the fixture's zip, the lines of `types` only.
    static func converted(_ input: String, types: String) throws -> [[String: Any]] {
        let result = try healthport("convert", input, "--type", types, "--format", "ndjson", "-o", "-", "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        return try ndjsonObjects(result.stdout).filter { $0["uuid"] != nil }
    }

    static func metadata(_ line: [String: Any]) -> [String: Any] { line["metadata"] as? [String: Any] ?? [:] }

    /// A quantity sample's line's value and unit.
    static func quantity(_ line: [String: Any]) -> (value: Double?, unit: String?) {
        let quantity = line["quantity"] as? [String: Any]
        return ((quantity?["value"] as? NSNumber)?.doubleValue, quantity?["unit"] as? String)
    }

    /// Cycle tracking as HealthKit's samples: the flows heavy, light and unknown (codes 3, 1, 0)
    /// are vaginal bleeding heavy (4), light (2) and unspecified (1), and the period over the
    /// 5th and 6th a flow of unspecified amount that starts the cycle; high, positive and
    /// negative ovulation tests are estrogen surge (4), LH surge (2) and negative (1); protection
    /// used, not used, unknown is `HKSexualActivityProtectionUsed` 1, 0, absent.
    @Test func cycleTrackingConverts() throws {
        let fixture = try HealthConnectFixture.make()
        let flows = try Self.converted(fixture.zip, types: "MenstrualFlow")
        #expect(flows.map { $0["valueName"] as? String } == [
            "HKCategoryValueVaginalBleedingHeavy", "HKCategoryValueVaginalBleedingLight",
            "HKCategoryValueVaginalBleedingUnspecified", "HKCategoryValueVaginalBleedingUnspecified",
        ])
        #expect(flows.map { Self.metadata($0)["HKMenstrualCycleStart"] as? Int } == [0, 0, 0, 1])
        #expect(flows.last?["startDate"] as? String == "2026-01-05T00:00:00+01:00")
        #expect(flows.last?["endDate"] as? String == "2026-01-07T00:00:00+01:00")

        let tests = try Self.converted(fixture.zip, types: "OvulationTestResult")
        #expect(tests.map { $0["value"] as? Int } == [4, 2, 1])
        let mucus = try Self.converted(fixture.zip, types: "CervicalMucusQuality,HealthConnectCervicalMucus")
        #expect(mucus.map { $0["sampleType"] as? String } == ["HKCategoryTypeIdentifierCervicalMucusQuality", "HealthConnectCervicalMucus"])
        #expect(mucus.map { $0["value"] as? Int } == [5, 0])
        #expect(mucus.map { Self.metadata($0)["HealthConnectCervicalMucusSensation"] as? String } == ["2", "1"])
        let activity = try Self.converted(fixture.zip, types: "SexualActivity")
        #expect(activity.map { Self.metadata($0)["HKSexualActivityProtectionUsed"] as? Int } == [1, 0, nil])
        #expect(try Self.converted(fixture.zip, types: "IntermenstrualBleeding").count == 1)
    }

    /// A day's menstrual flow counts the samples that say there was bleeding on it: the 5th the
    /// period (which covers it) and the heavy flow, 2; the 6th the period and the light flow,
    /// 2; the 7th the unknown flow alone (the period ends at its midnight), 1.
    @Test func menstrualFlowDays() throws {
        let fixture = try HealthConnectFixture.make()
        let result = try healthport("summary", fixture.zip, "--type", "MenstrualFlow", "--format", "csv", "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let rows = parseCSV(result.stdoutText)
        let header = try #require(rows.first)
        let date = try #require(header.firstIndex(of: "date"))
        let count = try #require(header.firstIndex(of: "count"))
        let days = Dictionary(uniqueKeysWithValues: rows.dropFirst().map { ($0[date], $0[count]) })
        #expect(days == ["2026-01-05": "2", "2026-01-06": "2", "2026-01-07": "1"])
    }

    /// Basal body temperature in °C, as stored: the 6th's 36.45 (mouth, HealthKit's sensor
    /// location 6) and the 7th's 36.7 (vagina, HealthKit's "other", 0), one a day, so each day's
    /// average is its one reading; the body temperature's ear (8) is HealthKit's ear (3).
    @Test func temperaturesConvertAndAverage() throws {
        let fixture = try HealthConnectFixture.make()
        let basal = try Self.converted(fixture.zip, types: "BasalBodyTemperature")
        #expect(basal.map { Self.quantity($0).unit } == ["degC", "degC"])
        #expect(basal.map { Self.quantity($0).value } == [36.45, 36.7])
        #expect(basal.map { Self.metadata($0)["HKBodyTemperatureSensorLocation"] as? Int } == [6, 0])
        let body = try Self.converted(fixture.zip, types: "BodyTemperature")
        #expect(body.map { Self.metadata($0)["HKBodyTemperatureSensorLocation"] as? Int } == [3])
        #expect(body.map { Self.metadata($0)["HealthConnectMeasurementLocation"] as? String } == ["8"])

        let result = try healthport("summary", fixture.zip, "--type", "BasalBodyTemperature", "--format", "csv", "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let rows = parseCSV(result.stdoutText)
        let header = try #require(rows.first)
        let date = try #require(header.firstIndex(of: "date"))
        let average = try #require(header.firstIndex(of: "average"))
        let days = Dictionary(uniqueKeysWithValues: rows.dropFirst().map { ($0[date], Double($0[average])) })
        #expect(days == ["2026-01-06": 36.45, "2026-01-07": 36.7])
    }

    /// A day's dietary totals from the foods' members: the 5th's lunch, 420,000 cal = 420 kcal,
    /// and the 6th's espresso, 2,000 cal = 2 kcal; the lunch's sodium, 0.85 g (written as 850
    /// mg, totalled in the catalogue's gram); its trans fat, Health Connect's own type, 0.25 g.
    @Test func nutritionTotalsByDay() throws {
        let fixture = try HealthConnectFixture.make()
        let result = try healthport(
            "summary", fixture.zip, "--type", "DietaryEnergyConsumed,DietarySodium,HealthConnectDietaryFatTrans", "--format", "csv", "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let rows = parseCSV(result.stdoutText)
        let header = try #require(rows.first)
        let date = try #require(header.firstIndex(of: "date")), type = try #require(header.firstIndex(of: "sampleType"))
        let sum = try #require(header.firstIndex(of: "sum"))
        let sums = Dictionary(uniqueKeysWithValues: rows.dropFirst().map { ($0[date] + " " + $0[type], Double($0[sum])) })
        #expect(
            sums == [
                "2026-01-05 HKQuantityTypeIdentifierDietaryEnergyConsumed": 420, "2026-01-06 HKQuantityTypeIdentifierDietaryEnergyConsumed": 2,
                "2026-01-05 HKQuantityTypeIdentifierDietarySodium": 0.85, "2026-01-05 HealthConnectDietaryFatTrans": 0.25,
            ])
    }

    /// Written as Apple's export.xml and read back, each food still holds its members (the
    /// lunch's 15 nutrients, the espresso's 2) and its name, and every object comes back once:
    /// the 86 `HealthConnectReaderTests` counts.
    @Test func foodsSurviveApplesExportFormat() throws {
        let fixture = try HealthConnectFixture.make()
        let xml = try Fixtures.temporaryDirectory().appendingPathComponent("export.xml").path
        let written = try healthport("convert", fixture.zip, "--format", "export", "-o", xml, "-q")
        #expect(written.status == 0, "\(written.stderrText)")
        let foods = try Self.converted(xml, types: "Food")
        #expect(foods.map { ($0["objects"] as? [Any])?.count } == [15, 2])
        #expect(foods.map { Self.metadata($0)["HKFoodType"] as? String } == ["Lentil soup with rye bread", "Espresso"])
        let all = try healthport("convert", xml, "--format", "ndjson", "-o", "-", "-q")
        #expect(try ndjsonObjects(all.stdout).filter { $0["uuid"] != nil }.count == 86)
    }

    /// De-identified, no meal's name is left in any format (the person wrote it: `HKFoodType`
    /// is free text, removed as a session's title and notes are), and no cycle-tracking code
    /// either, since they are text; HealthKit's numeric keys stay (`HKMenstrualCycleStart`).
    @Test func deidentifiedOutputKeepsNoMealName() throws {
        let fixture = try HealthConnectFixture.make()
        let directory = try Fixtures.temporaryDirectory()
        let key = directory.appendingPathComponent("study.key").path
        for format in ["ndjson", "csv", "fhir", "omh"] {
            let output = directory.appendingPathComponent("out-\(format)").path
            let result = try healthport("convert", fixture.zip, "--format", format, "--deidentify", key, "--output", output, "-q")
            #expect(result.status == 0, "\(format): \(result.stderrText)")
            var written = ""
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: output, isDirectory: &isFolder), isFolder.boolValue {
                for name in try FileManager.default.subpathsOfDirectory(atPath: output) {
                    written += (try? String(contentsOfFile: output + "/" + name, encoding: .utf8)) ?? ""
                }
            } else {
                written = try String(contentsOfFile: output, encoding: .utf8)
            }
            #expect(!written.isEmpty, "\(format)")
            for secret in ["Lentil soup", "rye bread", "Espresso", "HKFoodType", "HealthConnectMenstruationFlow"] {
                #expect(!written.contains(secret), "\(format) keeps \(secret)")
            }
        }
        let ndjson = try String(contentsOfFile: directory.appendingPathComponent("out-ndjson").path, encoding: .utf8)
        #expect(ndjson.contains("\"HKMenstrualCycleStart\":1"))
        // The foods themselves are kept: their energy, without their names.
        #expect(ndjson.contains("HKQuantityTypeIdentifierDietaryEnergyConsumed") && ndjson.contains("HKCorrelationTypeIdentifierFood"))
    }

    /// The basal metabolic rate is a level, averaged, never summed: the 5th's one reading,
    /// 83.68 W, is 1,728 kcal/d (83.68 × 86,400 ÷ 4,184); bone mass 3.1 kg (3,100 g).
    @Test func basalMetabolicRateAndBoneMassAverage() throws {
        let fixture = try HealthConnectFixture.make()
        let result = try healthport(
            "summary", fixture.zip, "--type", "HealthConnectBasalMetabolicRate,HealthConnectBoneMass", "--format", "csv", "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let rows = parseCSV(result.stdoutText)
        let header = try #require(rows.first)
        let type = try #require(header.firstIndex(of: "sampleType")), unit = try #require(header.firstIndex(of: "unit"))
        let average = try #require(header.firstIndex(of: "average")), sum = try #require(header.firstIndex(of: "sum"))
        let byType = Dictionary(uniqueKeysWithValues: rows.dropFirst().map { ($0[type], $0) })
        let rate = try #require(byType["HealthConnectBasalMetabolicRate"])
        #expect(rate[unit] == "kcal/d")
        #expect(abs((Double(rate[average]) ?? 0) - 1728) < 1e-6)
        #expect(rate[sum].isEmpty)
        let bone = try #require(byType["HealthConnectBoneMass"])
        #expect(bone[unit] == "kg" && abs((Double(bone[average]) ?? 0) - 3.1) < 1e-9)
    }

    /// The context of a measurement in the conversion: the glucose before breakfast is
    /// HealthKit's preprandial (1), after lunch postprandial (2), both from capillary blood
    /// (2); the blood pressure's left upper arm (3) and standing position (1) are on its
    /// correlation and its two samples.
    @Test func measurementContextConverts() throws {
        let fixture = try HealthConnectFixture.make()
        let glucose = try Self.converted(fixture.zip, types: "BloodGlucose")
        #expect(glucose.map { Self.metadata($0)["HKBloodGlucoseMealTime"] as? Int } == [1, 2])
        #expect(glucose.map { Self.metadata($0)["HealthConnectSpecimenSource"] as? String } == ["2", "2"])
        #expect(glucose.map { Self.quantity($0).unit } == ["mg/dL", "mg/dL"])
        let pressure = try Self.converted(fixture.zip, types: "BloodPressure,BloodPressureSystolic,BloodPressureDiastolic")
        #expect(pressure.count == 3)
        #expect(pressure.allSatisfy { Self.metadata($0)["HealthConnectMeasurementLocation"] as? String == "3" })
        #expect(pressure.allSatisfy { Self.metadata($0)["HealthConnectBodyPosition"] as? String == "1" })
    }

    /// Series readings average by day: the ride's pedal cadence on the 7th, (85 + 90) / 2 =
    /// 87.5 a minute, as HealthKit's cycling cadence; the run's speed on the 6th,
    /// (2.8 + 3.1 + 3.0) / 3 = 8.9 / 3 = 2.9666… m/s. The strength session's segments are its
    /// events: three segments of 5, 2 and 5 minutes.
    @Test func seriesAverageAndSegmentsConvert() throws {
        let fixture = try HealthConnectFixture.make()
        let result = try healthport("summary", fixture.zip, "--type", "CyclingCadence,HealthConnectSpeed", "--format", "csv", "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let rows = parseCSV(result.stdoutText)
        let header = try #require(rows.first)
        let date = try #require(header.firstIndex(of: "date")), type = try #require(header.firstIndex(of: "sampleType"))
        let average = try #require(header.firstIndex(of: "average"))
        let averages = Dictionary(uniqueKeysWithValues: rows.dropFirst().map { ($0[date] + " " + $0[type], Double($0[average]) ?? 0) })
        #expect(averages.count == 2)
        #expect(averages["2026-01-07 HKQuantityTypeIdentifierCyclingCadence"] == 87.5)
        #expect(abs((averages["2026-01-06 HealthConnectSpeed"] ?? 0) - 8.9 / 3) < 1e-9)

        let workouts = try Self.converted(fixture.zip, types: "Workout")
        let events = (workouts.last?["workoutEvents"] as? [[String: Any]]) ?? []
        #expect(events.map { $0["type"] as? String } == Array(repeating: "HKWorkoutEventTypeSegment", count: 3))
        #expect(events.map { (($0["duration"] as? [String: Any])?["value"] as? NSNumber)?.doubleValue } == [5, 2, 5])
    }
}
