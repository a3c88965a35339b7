import Foundation
import Testing
import HealthExport
import HealthModel
import HealthQuery
import HealthTestSupport

/// Exports the project generates itself, with known answers.
@Suite struct GeneratedExportTests {
    static func generate(_ configure: (inout ExportGenerator.Options) -> Void = { _ in }, documentName: String = "export.xml")
        throws -> (root: URL, manifest: ExportGenerator.Manifest)
    {
        var options = ExportGenerator.Options()
        options.days = 10
        configure(&options)
        let root = try Fixtures.temporaryDirectory()
        let manifest = try ExportGenerator(options: options).writeFolder(at: root, documentName: documentName)
        return (root, manifest)
    }

    @Test func countsPerTypeEqualWhatTheGeneratorWroteInEveryContainer() throws {
        let (root, manifest) = try Self.generate()
        let zip = root.appendingPathComponent("export.zip")
        try ExportArchiver.zip(folder: root, to: zip)
        for input in [
            root.path, root.appendingPathComponent("apple_health_export").path,
            root.appendingPathComponent("apple_health_export/export.xml").path, zip.path,
        ] {
            let result = try read(.path(input))
            #expect(result.sink.countsByType == manifest.objectsByType, "\(input)")
            #expect(result.summary.objectCount == manifest.objectCount)
            #expect(result.summary.replacedByteCount == manifest.forbiddenBytes)
            #expect(result.sink.header?.exportVersion == 14)
            #expect(result.sink.header?.characteristics?.biologicalSex == "HKBiologicalSexFemale")
        }
    }

    @Test func findsALocalizedDocumentByContent() throws {
        let (root, manifest) = try Self.generate(documentName: "导出.xml")
        let zip = root.appendingPathComponent("导出.zip")
        try ExportArchiver.zip(folder: root, to: zip)
        let reader = try ExportReader(.path(zip.path))
        #expect(reader.layout.documentPath == "apple_health_export/导出.xml")
        let sink = CollectingSink()
        _ = try reader.read(.everything, into: sink)
        #expect(sink.countsByType == manifest.objectsByType)
        #expect(reader.layout.sideFiles.contains("export_cda.xml"))
        #expect(reader.layout.sideFiles.filter { $0.hasPrefix("workout-routes/") }.count == manifest.routeFiles.count)
    }

    @Test func theBrokenIOS16DTDIsRead() throws {
        let (root, manifest) = try Self.generate { $0.brokenDTD = true }
        let result = try read(.path(root.path))
        #expect(result.sink.countsByType == manifest.objectsByType)
        #expect(result.sink.header?.exportVersion == 12)
    }

    @Test func sameExportGivesTheSameUUIDsAndAllAreUnique() throws {
        let (root, manifest) = try Self.generate()
        let first = try read(.path(root.path)).sink.objects.map(\.uuid)
        let second = try read(.path(root.path)).sink.objects.map(\.uuid)
        #expect(first == second)
        #expect(Set(first).count == first.count)
        #expect(manifest.exactDuplicates > 0)
    }

    @Test func correlationMembersReferToTheirTopLevelSamples() throws {
        let (root, _) = try Self.generate()
        let objects = try read(.path(root.path)).sink.objects
        let topLevel = Set(objects.map(\.uuid))
        let members = objects.compactMap { object -> [ObjectUUID]? in
            if case .correlation(let c) = object { return c.objects.map(\.sample.uuid) }
            return nil
        }.flatMap { $0 }
        #expect(!members.isEmpty)
        #expect(members.allSatisfy { topLevel.contains($0) })
    }

    @Test func workoutMetadataPrintedTwiceIsMergedAndChildrenAreKept() throws {
        let (root, _) = try Self.generate()
        let workouts = try read(.path(root.path)).sink.objects.compactMap { object -> Workout? in
            if case .workout(let w) = object { return w }
            return nil
        }
        let workout = try #require(workouts.first)
        #expect(workout.sample.metadata.entries.count == 4)
        #expect(workout.workoutEvents.count == 3)
        #expect(workout.workoutActivities.count == 1)
        #expect(workout.workoutActivities[0].workoutEvents.count == 1)
        #expect(workout.workoutActivities[0].statistics.count == 1)
        // Distance, active energy and heart rate.
        #expect(workout.statistics.count == 3)
        #expect(workout.routes.count == 1)
        #expect(workout.routes[0].fileReference?.hasPrefix("/workout-routes/") == true)
        #expect(workout.routes[0].sample.uuid != workout.sample.uuid)
    }

    @Test func hrvBeatsArePlacedOnTheTimeLineIncludingAcrossMidnight() throws {
        let (root, _) = try Self.generate()
        let hrv = try read(.path(root.path)).sink.objects.compactMap { object -> QuantitySample? in
            if case .quantitySample(let q) = object, !q.instantaneousBeatsPerMinute.isEmpty { return q }
            return nil
        }
        #expect(hrv.count == 20)
        for sample in hrv {
            let dates = sample.instantaneousBeatsPerMinute.compactMap(\.date)
            #expect(dates.count == 4)
            for date in dates {
                #expect(date.secondsSince1970 >= sample.sample.startDate.secondsSince1970)
                #expect(date.secondsSince1970 <= sample.sample.endDate.secondsSince1970)
            }
        }
    }

    @Test func unknownKindsArePassedThroughAndCounted() throws {
        let (root, _) = try Self.generate()
        let result = try read(.path(root.path))
        #expect(result.summary.passedThrough["FutureElement"] == 1)
        let unknown = result.sink.objects.compactMap { object -> UnknownObject? in
            if case .unknown(let u) = object { return u }
            return nil
        }
        #expect(unknown.first?.element.children.first?.name == "FutureChild")
        #expect(result.sink.countsByType["HKQuantityTypeIdentifierFutureMetric"] == 1)
        #expect(result.summary.warnings.contains { $0.warning.key == "type:HKQuantityTypeIdentifierFutureMetric" })
    }

    @Test(arguments: [("export.zip", 14), ("export-older.zip", 12)])
    func sampleDataZipsAreTheGeneratorsOutput(name: String, days: Int) throws {
        let zip = Fixtures.sampleData.appendingPathComponent(name)
        let committed = try read(.path(zip.path)).sink.objects
        let options = ExportGenerator.Options.sample(days: days)
        let root = try Fixtures.temporaryDirectory()
        let manifest = try ExportGenerator(options: options).writeFolder(at: root)
        let regenerated = try read(.path(root.path)).sink.objects
        #expect(committed == regenerated)
        #expect(committed.count == manifest.objectCount)
    }
}

@Suite struct TypeFilterTests {
    @Test func skippedTypesLeaveTheUUIDsOfTheRestUnchanged() throws {
        let (root, manifest) = try GeneratedExportTests.generate()
        let full = try read(.path(root.path)).sink.objects
        let wanted: Set<String> = ["HKQuantityTypeIdentifierBodyMass", "HKWorkoutTypeIdentifier", "HKCorrelationTypeIdentifierBloodPressure"]
        let sink = CollectingSink()
        let summary = try ExportReader(.path(root.path)).read(.everything, into: sink, types: wanted)
        #expect(summary.objectCount == wanted.map { manifest.objectsByType[$0] ?? 0 }.reduce(0, +))
        #expect(sink.objects == full.filter { wanted.contains($0.objectType.identifier) })
    }
}
