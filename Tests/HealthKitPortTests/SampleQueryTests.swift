import Foundation
import HealthEngine
import HealthKitPort
import HealthQuery
import HealthTestSupport
import Testing

/// `HKSampleQueryDescriptor` over the sample export and a store made from it, against what
/// `healthport query` prints for the same query.
@Suite struct SampleQueryTests {
    /// Seed 000/001/002 ("Read the newest prescription from the HealthKit store"), unchanged but
    /// for the store's opening line.
    @Test func theSeedsNewestPrescriptionQuery() async throws {
        let store = try HKHealthStore(opening: Reference.export)

        // Read the newest prescription from the HealthKit store.
        let queryDescriptor = HKSampleQueryDescriptor(predicates: [.visionPrescription()],
                                                      sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)],
                                                      limit: 1)

        let prescription: HKVisionPrescription

        do {
            guard let result = try await queryDescriptor.result(for: store).first else {
                print("*** No prescription found. ***")
                Issue.record("the sample export holds a prescription")
                return
            }

            prescription = result
        } catch {
            // Handle the error here.
            fatalError("*** An error occurred while reading the most recent vision prescriptions: \(error.localizedDescription) ***")
        }

        let cli = try Reference.queryLines(
            SampleQueryRun(
                input: .export(Reference.export.path), query: ObjectQuery(types: ["HKVisionPrescriptionTypeIdentifier"]),
                sortDescriptors: [try ObjectSortDescriptor(parsing: "startDate:desc")], limit: 1))
        #expect(Reference.uuids(cli) == [prescription.uuid.uuidString])
        #expect(prescription.prescriptionType == .glasses)
        // dateIssued="2024-03-26 13:00:00 +0200": noon in Paris, an hour before summer time
        #expect(prescription.dateIssued == ISO8601DateFormatter().date(from: "2024-03-26T11:00:00Z"))
        #expect(prescription.sampleType == HKObjectType.visionPrescriptionType())
        #expect(prescription.sampleType.requiresPerObjectAuthorization())
    }

    /// Steps in a window, newest first, five: the uuids, order and values `healthport query
    /// --type StepCount --start … --end … --sort startDate:desc --limit 5` prints.
    @Test(arguments: [false, true]) func stepsInAWindowMatchTheCommandLine(fromStore: Bool) async throws {
        let url = fromStore ? try Reference.store() : Reference.export
        let store = try HKHealthStore(opening: url)
        let all = try await HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: HKQuantityType(.stepCount))], sortDescriptors: [SortDescriptor(\.startDate)]
        ).result(for: store)
        #expect(all.count > 10)
        let start = all[all.count / 4].startDate
        let end = all[all.count / 2].startDate
        let window = HKQuery.predicateForSamples(withStart: start, end: end, options: .strictStartDate)
        let descriptor = HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: HKQuantityType(.stepCount), predicate: window)],
            sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)], limit: 5)
        let samples = try await descriptor.result(for: store)

        var query = ObjectQuery(types: ["HKQuantityTypeIdentifierStepCount"])
        query.dateWindow = DateWindow(start: start.timeIntervalSince1970, end: end.timeIntervalSince1970, strictStartDate: true)
        let cli = try Reference.queryLines(
            SampleQueryRun(
                input: fromStore ? .store(url.path) : .export(url.path), query: query,
                sortDescriptors: [try ObjectSortDescriptor(parsing: "startDate:desc")], limit: 5))
        #expect(samples.count == 5)
        #expect(samples.map(\.uuid.uuidString) == Reference.uuids(cli))
        for (sample, line) in zip(samples, cli) {
            let quantity = try #require(line["quantity"] as? [String: Any])
            #expect(sample.quantity.doubleValue(for: .count()) == (quantity["value"] as? NSNumber)?.doubleValue)
            #expect(sample.startDate >= start && sample.startDate < end)
        }
    }

    /// The export and the store answer with the same objects: uuids are derived from content.
    @Test func anExportAndItsStoreAnswerAlike() async throws {
        let descriptor = HKSampleQueryDescriptor(
            predicates: [.sample(type: HKQuantityType(.heartRate)), .sample(type: HKObjectType.workoutType())], sortDescriptors: [])
        let fromExport = try await descriptor.result(for: HKHealthStore(opening: Reference.export))
        let fromStore = try await descriptor.result(for: HKHealthStore(opening: Reference.store()))
        #expect(!fromExport.isEmpty)
        #expect(Set(fromExport.map(\.uuid)) == Set(fromStore.map(\.uuid)))
        let cli = try Reference.queryLines(
            SampleQueryRun(input: .export(Reference.export.path), query: ObjectQuery(types: ["HKQuantityTypeIdentifierHeartRate", "HKWorkoutTypeIdentifier"])))
        #expect(fromExport.map(\.uuid.uuidString) == Reference.uuids(cli))
        let heartRate = try #require(fromExport.first { $0 is HKQuantitySample } as? HKQuantitySample)
        #expect(heartRate.quantity.is(compatibleWith: HKUnit(from: "count/min")))
        #expect(heartRate.quantity.doubleValue(for: HKUnit.count().unitDivided(by: .minute())) > 20)
        #expect(heartRate.quantity.doubleValue(for: .count().unitDivided(by: .second())) * 60
            == heartRate.quantity.doubleValue(for: HKUnit(from: "count/min")))
        #expect(fromExport.contains { $0 is HKWorkout })
    }

    /// The unzipped folder and its `export.xml` open like the zip, with the same answers.
    @Test func aFolderAndABareExportXMLOpenLikeTheZip() async throws {
        let folder = try Fixtures.temporaryDirectory()
        let unzip = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/unzip"), ["-q", Reference.export.path, "-d", folder.path])
        try #require(unzip.status == 0)
        let root = folder.appendingPathComponent("apple_health_export")
        let descriptor = HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: HKQuantityType(.stepCount))], sortDescriptors: [SortDescriptor(\.endDate, order: .reverse)], limit: 20)
        let fromZip = try await descriptor.result(for: HKHealthStore(opening: Reference.export)).map(\.uuid)
        #expect(fromZip.count == 20)
        #expect(try await descriptor.result(for: HKHealthStore(opening: root)).map(\.uuid) == fromZip)
        #expect(try await descriptor.result(for: HKHealthStore(opening: root.appendingPathComponent("export.xml"))).map(\.uuid) == fromZip)
    }

    @Test func unitsConvertAsHealthKitsDo() {
        let mass = HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 70)
        #expect(mass.doubleValue(for: .gram()) == 70_000)
        #expect(abs(mass.doubleValue(for: .pound()) - 154.3235835) < 1e-6)
        #expect(HKQuantity(unit: .mile(), doubleValue: 1).doubleValue(for: .meterUnit(with: .kilo)) == 1.609344)
        #expect(HKQuantity(unit: .meter(), doubleValue: 1).doubleValue(for: .count()).isNaN)
        #expect(HKUnit(from: "count/min") == HKUnit.count().unitDivided(by: .minute()))
    }

    /// A predicate this library cannot read fails rather than being ignored.
    @Test func aBlockPredicateIsAnInvalidArgument() async throws {
        let store = try HKHealthStore(opening: Reference.export)
        let descriptor = HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: HKQuantityType(.stepCount), predicate: NSPredicate { _, _ in true })], sortDescriptors: [])
        let error = await #expect(throws: HKError.self) { _ = try await descriptor.result(for: store) }
        #expect(error?.code == .errorInvalidArgument)
    }

    @Test func aMissingFileIsInaccessible() {
        let error = #expect(throws: HKError.self) { try HKHealthStore(opening: URL(fileURLWithPath: "/nonexistent/export.zip")) }
        #expect(error?.code == .errorDatabaseInaccessible)
    }
}
