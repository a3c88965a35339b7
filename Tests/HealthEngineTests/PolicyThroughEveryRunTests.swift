import Foundation
import HealthEngine
import HealthExport
import HealthModel
import HealthOutput
import HealthQuery
import HealthStore
import HealthTestSupport
import Testing

/// The one gate holds in every run and every format: with heart rate read **denied**, workouts
/// and step counts granted and nothing else decided, no output of any run holds heart-rate data
/// (workout statistics included), electrocardiograms, clinical records or routes.
@Suite struct PolicyThroughEveryRunTests {
    static let export = Fixtures.sampleData.appendingPathComponent("export.zip").path
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"

    static func policyQuery() -> ObjectQuery {
        var policy = AuthorizationPolicy(consumer: .init(name: "Run Club"))
        policy.read = [
            "HKWorkoutTypeIdentifier": .granted, "HKQuantityTypeIdentifierStepCount": .granted, heartRate: .denied,
        ]
        var query = ObjectQuery()
        query.policy = policy
        return query
    }

    /// Every byte a run wrote (a file, or every file under a folder).
    static func written(_ path: String) throws -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return "" }
        guard isFolder.boolValue else { return String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self) }
        var text = ""
        for name in try FileManager.default.subpathsOfDirectory(atPath: path).sorted() {
            text += name + "\n" + (try written(path + "/" + name))
        }
        return text
    }

    /// Nothing of what the policy hides: no heart-rate type or statistic, no ECG, no clinical
    /// record, no route.
    static func expectNothingHidden(_ text: String, _ what: String) {
        #expect(!text.contains(heartRate), "\(what) shows heart rates")
        #expect(!text.contains("HeartRate"), "\(what) shows heart rates")
        #expect(!text.lowercased().contains("electrocardiogram"), "\(what) shows ECGs")
        #expect(!text.contains("HKClinicalTypeIdentifier"), "\(what) shows clinical records")
        #expect(!text.contains(".gpx"), "\(what) shows routes")
    }

    /// The unfiltered conversion does show all of it: the checks above can fail.
    @Test func withoutAPolicyTheSameChecksFindTheData() throws {
        let folder = try Fixtures.temporaryDirectory()
        let out = folder.appendingPathComponent("all.ndjson").path
        _ = try ConversionRun(export: Self.export, format: .ndjson, output: out).run()
        let text = try Self.written(out)
        #expect(text.contains("\"HKQuantityTypeIdentifierHeartRate\""))
        #expect(text.contains("\"statistics\":[{\"quantityType\":\"HKQuantityTypeIdentifierHeartRate\"")
            || text.contains("HKQuantityTypeIdentifierHeartRate\",\"startDate"))
        #expect(text.contains("HKClinicalTypeIdentifier"))
        #expect(text.contains(".gpx"))
    }

    @Test(arguments: [ObjectFormat.ndjson, .json, .csv, .export])
    func conversionHidesDeniedDataInEveryFormat(format: ObjectFormat) throws {
        let folder = try Fixtures.temporaryDirectory()
        let out = folder.appendingPathComponent(format == .csv ? "tables" : "out.\(format.rawValue)").path
        for jobs in [1, 2] {
            var run = ConversionRun(export: Self.export, query: Self.policyQuery(), format: format, output: out)
            run.reading.jobs = jobs
            run.reading.parallelChunkBytes = 4096
            let summary = try run.run()
            #expect(summary.written > 0)
            var text = try Self.written(out)
            // Apple's DTD names every element kind; the data starts at the root.
            if format == .export, let root = text.range(of: "<HealthData") { text = String(text[root.lowerBound...]) }
            #expect(text.contains("HKWorkoutActivityType"), "the workouts are granted")
            Self.expectNothingHidden(text, "convert --format \(format) --jobs \(jobs)")
        }
    }

    @Test func exportArchiveCarriesNoHiddenFile() throws {
        let folder = try Fixtures.temporaryDirectory()
        let out = folder.appendingPathComponent("shared.zip").path
        _ = try ConversionRun(export: Self.export, query: Self.policyQuery(), format: .export, output: out).run()
        let reader = try ExportReader(.path(out))
        #expect(!reader.layout.sideFiles.contains { $0.contains("electrocardiograms") || $0.contains("clinical") || $0.contains("cda") })
        let back = folder.appendingPathComponent("back.ndjson").path
        _ = try ConversionRun(export: out, format: .ndjson, output: back).run()
        Self.expectNothingHidden(try Self.written(back), "the archive")
    }

    @Test func sampleQueryHidesDeniedDataFromExportAndStore() throws {
        let folder = try Fixtures.temporaryDirectory()
        let store = folder.appendingPathComponent("health.sqlite").path
        _ = try ImportRun(export: Self.export, store: store).run()
        for input in [ObjectInput.export(Self.export), .store(store)] {
            let out = folder.appendingPathComponent("query.ndjson").path
            _ = try SampleQueryRun(
                input: input, query: Self.policyQuery(), sortDescriptors: [try ObjectSortDescriptor(parsing: "startDate:desc")],
                format: .ndjson, output: out
            ).run()
            let text = try Self.written(out)
            #expect(text.contains("HKWorkoutActivityType"))
            Self.expectNothingHidden(text, "query \(input)")
        }
        let changes = folder.appendingPathComponent("changes.ndjson").path
        let batch = try ChangesRun(input: .store(store), query: Self.policyQuery(), output: changes).run()
        #expect(batch.added > 0)
        Self.expectNothingHidden(try Self.written(changes), "changes --store")
    }

    @Test func changesAndDiffHideDeniedData() throws {
        let folder = try Fixtures.temporaryDirectory()
        let anchor = try AnchorRun(export: Self.export, query: Self.policyQuery()).run().anchor
        #expect(anchor.base.count > 0)
        let out = folder.appendingPathComponent("changes.ndjson").path
        let summary = try ChangesRun(input: .export(Self.export), query: Self.policyQuery(), format: .ndjson, output: out).run()
        #expect(summary.added == anchor.base.count)
        Self.expectNothingHidden(try Self.written(out), "changes")
        let diff = folder.appendingPathComponent("diff").path
        _ = try DiffRun(oldExport: Self.export, newExport: Self.export, query: Self.policyQuery(), format: .csv, output: diff).run()
        Self.expectNothingHidden(try Self.written(diff), "diff")
    }

    @Test func statisticsOfADeniedTypeAreEmpty() throws {
        var query = Self.policyQuery()
        query.types = [Self.heartRate]
        let denied = try StatisticsRun(input: .export(Self.export), query: query).run()
        #expect(denied.intervals.allSatisfy { $0.average == nil && $0.bySource.isEmpty })
        var owner = ObjectQuery()
        owner.types = [Self.heartRate]
        #expect(try StatisticsRun(input: .export(Self.export), query: owner).run().intervals.contains { $0.average != nil })
    }

    @Test func inventoryRoutesECGAndClinicalHideDeniedData() throws {
        let info = try InventoryRun(input: .export(Self.export), query: Self.policyQuery()).run()
        // The side-file labels name ECGs; their count is checked below.
        Self.expectNothingHidden((try info.json() + info.text()).replacingOccurrences(of: "lectrocardiograms", with: ""), "info")
        #expect(info.document.sideFiles?.electrocardiograms == 0)
        #expect(info.document.documentSize == nil)
        let owner = try InventoryRun(input: .export(Self.export)).run()
        #expect(owner.document.sideFiles?.electrocardiograms ?? 0 > 0)
        #expect(owner.document.types.contains { $0.type == Self.heartRate })

        let folder = try Fixtures.temporaryDirectory()
        let routes = folder.appendingPathComponent("routes.geojson").path
        #expect(try RouteRun(export: Self.export, query: Self.policyQuery(), output: routes).run().routes == 0)
        #expect(try RouteRun(export: Self.export, output: routes).run().routes > 0)
        let ecg = folder.appendingPathComponent("ecg.ndjson").path
        #expect(try ElectrocardiogramRun(export: Self.export, query: Self.policyQuery(), output: ecg).run() == 0)
        #expect(try ElectrocardiogramRun(export: Self.export, output: ecg).run() > 0)
        let clinical = folder.appendingPathComponent("clinical.ndjson").path
        #expect(try ClinicalRecordRun(export: Self.export, query: Self.policyQuery(), output: clinical).run().written == 0)
        #expect(try ClinicalRecordRun(export: Self.export, output: clinical).run().written > 0)
    }

    @Test func batchConversionHidesDeniedData() throws {
        let folder = try Fixtures.temporaryDirectory()
        let lake = folder.appendingPathComponent("lake").path
        let failed = try BatchConversionRun(
            inputs: [Self.export], persons: ["p1"], layout: try PartitionLayout(parsing: "person,type"), format: .ndjson, root: lake,
            jobs: 1, query: Self.policyQuery(), healthportVersion: "test"
        ).run()
        #expect(failed == 0)
        let text = try Self.written(lake)
        #expect(text.contains("HKWorkoutActivityType"))
        Self.expectNothingHidden(text, "batch")
    }
}
