import Testing
import HealthModel
@testable import HealthQuery

@Suite struct TypeNameResolverTests {
    @Test(arguments: [
        ("StepCount", "HKQuantityTypeIdentifierStepCount"), ("stepcount", "HKQuantityTypeIdentifierStepCount"),
        ("HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierHeartRate"),
        ("SleepAnalysis", "HKCategoryTypeIdentifierSleepAnalysis"), ("Workout", "HKWorkoutTypeIdentifier"),
        ("ActivitySummary", "HKActivitySummaryTypeIdentifier"), ("Audiogram", "HKDataTypeIdentifierAudiogram"),
        ("BloodPressure", "HKCorrelationTypeIdentifierBloodPressure"),
        ("HKCategoryTypeIdentifierEnvironmentalAudioExposureEvent", "HKCategoryTypeIdentifierAudioExposureEvent"),
    ])
    func resolvesWhatPeopleType(name: String, identifier: String) throws {
        #expect(try TypeNameResolver.resolve([name]) == [identifier])
    }

    @Test func splitsCommasAndRejectsUnknownNames() throws {
        #expect(try TypeNameResolver.resolve(["StepCount,HeartRate"]).count == 2)
        #expect(throws: QueryError.self) { try TypeNameResolver.resolve(["Stepcounts"]) }
    }

    /// A misspelt identifier (a letter or two from a known one) is refused, even with
    /// HealthKit's prefix, and the message suggests the nearest known one in the form it was
    /// typed.
    @Test func refusesUnknownIdentifiersWithTheNearestKnownOne() throws {
        do {
            _ = try TypeNameResolver.resolve(["HKQuantityTypeIdentifierStepCont"])
            Issue.record("accepted a misspelt identifier")
        } catch let error as QueryError {
            #expect(error.message.contains("did you mean HKQuantityTypeIdentifierStepCount?"))
        }
        do {
            _ = try TypeNameResolver.resolve(["HeartRat"])
            Issue.record("accepted a misspelt name")
        } catch let error as QueryError {
            #expect(error.message.contains("did you mean HeartRate?"))
        }
        // A full identifier far from every known one is a type newer than healthport: taken as
        // written (its samples are read and counted), not refused.
        #expect(try TypeNameResolver.resolve(["HKQuantityTypeIdentifierFromTheFuture"]) == ["HKQuantityTypeIdentifierFromTheFuture"])
        // Control characters in what was typed are not echoed raw.
        do {
            _ = try TypeNameResolver.resolve(["Step\u{1B}[31mCount"])
        } catch let error as QueryError {
            #expect(!error.message.contains("\u{1B}"))
        }
    }
}

@Suite struct QueryExecutorTests {
    func object(_ type: String) -> HealthObject {
        let t = ExportTimestamp(secondsSince1970: 0, utcOffsetSeconds: 0)
        let sample = SampleAttributes(
            sampleType: ObjectType(recordType: type), sourceRevision: SourceRevision(source: Source(name: "S")),
            startDate: t, endDate: t)
        return .quantitySample(QuantitySample(sample: sample, quantity: Quantity(value: ExportNumber(1), unit: "count")))
    }

    @Test func admitsOnlyTheSelectedTypes() {
        let executor = QueryExecutor(ObjectQuery(types: ["HKQuantityTypeIdentifierStepCount"]))
        #expect(executor.admits(object("HKQuantityTypeIdentifierStepCount")))
        #expect(!executor.admits(object("HKQuantityTypeIdentifierHeartRate")))
        #expect(QueryExecutor(.all).admits(object("HKQuantityTypeIdentifierHeartRate")))
    }

    @Test func inventoryCountsTypesSourcesAndDateRanges() {
        var inventory = ExportInventory()
        for seconds in [300, 100, 200] {
            let t = ExportTimestamp(secondsSince1970: Int64(seconds), utcOffsetSeconds: 3600)
            let sample = SampleAttributes(
                sampleType: ObjectType(recordType: "HKQuantityTypeIdentifierStepCount"),
                sourceRevision: SourceRevision(source: Source(name: seconds == 100 ? "Phone" : "Watch")),
                device: Device(name: "Watch", manufacturer: "Apple Inc."), startDate: t, endDate: t)
            inventory.add(.quantitySample(QuantitySample(sample: sample, quantity: Quantity(value: ExportNumber(1), unit: "count"))))
        }
        inventory.sort()
        #expect(inventory.objectCount == 3)
        #expect(inventory.types.first?.count == 3)
        #expect(inventory.types.first?.firstStartDate == "1970-01-01T01:01:40+01:00")
        #expect(inventory.types.first?.lastStartDate == "1970-01-01T01:05:00+01:00")
        #expect(inventory.sources.map(\.name) == ["Watch", "Phone"])
        #expect(inventory.devices.count == 1)
    }

    /// An export making a new type with every object (unknown element names) lists 10,000 of
    /// them, and still counts every object and its source.
    @Test func inventoryListsAtMostTenThousandTypes() {
        var inventory = ExportInventory()
        let t = ExportTimestamp(secondsSince1970: 100, utcOffsetSeconds: 0)
        for k in 0..<10_500 {
            let sample = SampleAttributes(
                sampleType: ObjectType(recordType: "HKQuantityTypeIdentifierFuture\(k)"),
                sourceRevision: SourceRevision(source: Source(name: "Watch")), startDate: t, endDate: t)
            inventory.add(.quantitySample(QuantitySample(sample: sample, quantity: Quantity(value: ExportNumber(1), unit: "count"))))
        }
        #expect(inventory.types.count == 10_000)
        #expect(inventory.objectCount == 10_500)
        #expect(inventory.sources.first?.count == 10_500)
    }
}
