import Foundation
import Testing
import HealthTestSupport

/// Metadata values as HealthKit holds them, through the command line: a quantity only under a
/// key HealthKit stores as `HKQuantity`, humidity in percent whatever the export's printing.
@Suite struct MetadataValueCommandTests {
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2026-01-05 10:00:00 +0100"/>
         <Record type="HKQuantityTypeIdentifierDietaryEnergyConsumed" sourceName="Food App" unit="kcal" startDate="2026-01-04 12:00:00 +0100" endDate="2026-01-04 12:00:00 +0100" value="150">
          <MetadataEntry key="HKFoodBrandName" value="13 Chips"/>
          <MetadataEntry key="HKFoodType" value="2 eggs"/>
         </Record>
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Watch" startDate="2026-01-04 08:00:00 +0100" endDate="2026-01-04 08:30:00 +0100">
          <MetadataEntry key="HKWeatherHumidity" value="6400 %"/>
          <MetadataEntry key="HKWeatherTemperature" value="56 degF"/>
          <MetadataEntry key="HKElevationAscended" value="4544 cm"/>
         </Workout>
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Watch" startDate="2016-01-04 08:00:00 +0100" endDate="2016-01-04 08:30:00 +0100">
          <MetadataEntry key="HKWeatherHumidity" value="64 %"/>
         </Workout>
        </HealthData>

        """

    func writeExport() throws -> URL {
        let file = try Fixtures.temporaryDirectory().appendingPathComponent("export.xml")
        try Data(Self.export.utf8).write(to: file)
        return file
    }

    @Test func ndjsonHoldsStringsAndQuantitiesByKey() throws {
        let file = try writeExport()
        let result = try healthport("convert", file.path, "--format", "ndjson", "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let objects = try ndjsonObjects(result.stdout).dropFirst()
        let food = try #require(objects.first { $0["sampleType"] as? String == "HKQuantityTypeIdentifierDietaryEnergyConsumed" })
        let foodMetadata = try #require(food["metadata"] as? [String: Any])
        #expect(foodMetadata["HKFoodBrandName"] as? String == "13 Chips")
        #expect(foodMetadata["HKFoodType"] as? String == "2 eggs")
        let workouts = objects.filter { $0["kind"] as? String == "workout" }
        #expect(workouts.count == 2)
        for workout in workouts {
            let humidity = try #require((workout["metadata"] as? [String: Any])?["HKWeatherHumidity"] as? [String: Any])
            #expect(humidity["value"] as? Int == 64)
            #expect(humidity["unit"] as? String == "%")
        }
        let recent = try #require((workouts.first?["metadata"] as? [String: Any]))
        #expect((recent["HKWeatherTemperature"] as? [String: Any])?["unit"] as? String == "degF")
        #expect((recent["HKElevationAscended"] as? [String: Any])?["value"] as? Int == 4544)
        // A predicate compares the brand as the string it is.
        let brand = try healthport("query", file.path, "--where", "metadata.HKFoodBrandName == '13 Chips'", "--format", "ndjson", "-q")
        #expect(brand.status == 0, "\(brand.stderrText)")
        #expect(try ndjsonObjects(brand.stdout).dropFirst().count == 1)
    }

    @Test func appleExportPrintsTheHumidityHealthKitHolds() throws {
        let file = try writeExport()
        let result = try healthport("convert", file.path, "--format", "export", "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        let xml = result.stdoutText
        #expect(xml.contains("key=\"HKWeatherHumidity\" value=\"64 %\""))
        #expect(!xml.contains("6400 %"))
        #expect(xml.contains("key=\"HKFoodBrandName\" value=\"13 Chips\""))
    }

    @Test func anEarlierVersionsQuantityReadsAsTheStringItWas() throws {
        // healthport before values were typed by key wrote `13 Chips` as a quantity, and
        // humidity as printed; reading such NDJSON gives today's values and the same uuids.
        let file = try writeExport()
        let current = try healthport("convert", file.path, "--format", "ndjson", "-q")
        var lines = current.stdoutText.split(separator: "\n").map(String.init)
        lines = lines.map {
            $0.replacingOccurrences(of: "\"HKFoodBrandName\":\"13 Chips\"", with: "\"HKFoodBrandName\":{\"value\":13,\"unit\":\"Chips\"}")
                .replacingOccurrences(of: "\"HKWeatherHumidity\":{\"value\":64,", with: "\"HKWeatherHumidity\":{\"value\":6400,")
        }
        #expect(lines.joined().contains("\"value\":6400"))
        let old = try Fixtures.temporaryDirectory().appendingPathComponent("old.ndjson")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: old)
        let reread = try healthport("convert", old.path, "--format", "ndjson", "-q")
        #expect(reread.status == 0, "\(reread.stderrText)")
        #expect(reread.stdoutText == current.stdoutText)
    }
}
