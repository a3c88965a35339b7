import Foundation
import HealthEngine
import HealthOutput
import HealthModel
import HealthQuery
import HealthTestSupport
import Testing

/// Each run, called as a library, answers what the generator says the sample export holds
/// (`SampleData/manifest.json`), without the command line.
@Suite struct EngineRunsTests {
    static let export = Fixtures.sampleData.appendingPathComponent("export.zip").path
    static let older = Fixtures.sampleData.appendingPathComponent("export-older.zip").path
    static let steps = "HKQuantityTypeIdentifierStepCount"

    static func manifest() throws -> ExportGenerator.Manifest {
        try JSONDecoder().decode(
            ExportGenerator.Manifest.self, from: Data(contentsOf: Fixtures.sampleData.appendingPathComponent("manifest.json")))
    }

    static func lines(_ path: String) throws -> [Substring] {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self).split(separator: "\n")
    }

    @Test func conversionWritesEveryObjectOnOneThreadOrTwo() throws {
        let manifest = try Self.manifest()
        let folder = try Fixtures.temporaryDirectory()
        var outputs: [Data] = []
        for jobs in [1, 2] {
            let out = folder.appendingPathComponent("out-\(jobs).ndjson").path
            var run = ConversionRun(export: Self.export, output: out)
            run.reading.jobs = jobs
            run.reading.parallelChunkBytes = 4096
            let summary = try run.run()
            #expect(summary.written == manifest.objectCount)
            #expect(try Self.lines(out).count == manifest.objectCount + 1)
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        #expect(outputs[0] == outputs[1])
    }

    /// The summary read in parallel (chunks of 4 KiB, each making its records on its thread)
    /// gives the rows of one thread, and so does a conversion's --summaries beside the objects.
    @Test func summariesAreTheSameOnOneThreadOrTwo() throws {
        var rows: [([DailySummary], [SleepNight])] = []
        for jobs in [1, 2] {
            var run = SummaryRun(input: .export(Self.export))
            run.reading.jobs = jobs
            run.reading.parallelChunkBytes = 4096
            run.settings.timeZone = TimeZone(identifier: "Europe/Paris")
            var days: [DailySummary] = []
            var nights: [SleepNight] = []
            _ = try run.run(daily: { days.append($0) }, night: { nights.append($0) })
            rows.append((days, nights))
        }
        #expect(rows[0].0.count > 100 && !rows[0].1.isEmpty)
        #expect(rows[0].0 == rows[1].0 && rows[0].1 == rows[1].1)
        let folder = try Fixtures.temporaryDirectory()
        var tables: [Data] = []
        for jobs in [1, 2] {
            let out = folder.appendingPathComponent("tables-\(jobs)").path
            var run = ConversionRun(export: Self.export, output: out)
            run.format = .csv
            run.summaries = SummarySettings(timeZone: TimeZone(identifier: "Europe/Paris"))
            run.reading.jobs = jobs
            run.reading.parallelChunkBytes = 4096
            _ = try run.run()
            tables.append(try Data(contentsOf: URL(fileURLWithPath: out + "/daily-summary.csv")))
            tables.append(try Data(contentsOf: URL(fileURLWithPath: out + "/sleep-nights.csv")))
        }
        #expect(tables[0] == tables[2] && tables[1] == tables[3])
        // The CSV has a line per day the run handed out, and a header.
        #expect(tables[0].filter { $0 == UInt8(ascii: "\n") }.count == rows[0].0.count + 1)
    }

    @Test func aSampleQueryWithoutASortStopsAtItsLimitAndWithOneKeepsTheNewest() throws {
        let folder = try Fixtures.temporaryDirectory()
        let first = folder.appendingPathComponent("first.ndjson").path
        let query = ObjectQuery(types: [Self.steps])
        #expect(try SampleQueryRun(input: .export(Self.export), query: query, limit: 3, output: first).run().written == 3)
        #expect(try Self.lines(first).count == 4)
        let newest = folder.appendingPathComponent("newest.ndjson").path
        _ = try SampleQueryRun(
            input: .export(Self.export), query: query, sortDescriptors: [try ObjectSortDescriptor(parsing: "startDate:desc")], limit: 1,
            output: newest
        ).run()
        let all = folder.appendingPathComponent("all.ndjson").path
        _ = try SampleQueryRun(input: .export(Self.export), query: query, output: all).run()
        let starts = try Self.lines(all).dropFirst().map { line -> String in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["startDate"] as? String ?? ""
        }
        let newestLine = try Self.lines(newest)[1]
        #expect(newestLine.contains("\"startDate\":\"\(starts.max() ?? "?")\""))
    }

    /// Sorted objects wait as JSON and are written through the writer: CSV and Apple's XML too.
    @Test func aSortedQueryWritesCSVAndExportXMLInOrder() throws {
        let folder = try Fixtures.temporaryDirectory()
        let csv = folder.appendingPathComponent("steps.csv").path
        let query = ObjectQuery(types: [Self.steps])
        let descending = [try ObjectSortDescriptor(parsing: "startDate:desc")]
        let summary = try SampleQueryRun(input: .export(Self.export), query: query, sortDescriptors: descending, format: .csv, output: csv).run()
        let rows = parseCSV(try String(contentsOf: URL(fileURLWithPath: csv), encoding: .utf8))
        #expect(rows.count == summary.written + 1 && summary.written > 100)
        let start = try #require(rows.first?.firstIndex(of: "startDate"))
        let starts = rows.dropFirst().map { $0[start] }
        #expect(starts == starts.sorted(by: >))
        let xml = folder.appendingPathComponent("steps.xml").path
        _ = try SampleQueryRun(input: .export(Self.export), query: query, sortDescriptors: descending, limit: 5, format: .export, output: xml).run()
        let back = folder.appendingPathComponent("back.ndjson").path
        _ = try ConversionRun(export: xml, output: back).run()
        let reread = try Self.lines(back).dropFirst().map { String($0) }
        #expect(reread.count == 5)
        #expect(reread.allSatisfy { $0.contains(Self.steps) })
    }

    @Test func anAnchorOfAnExportLeavesNoChangesInIt() throws {
        let anchor = try AnchorRun(export: Self.export).run().anchor
        #expect(anchor.base.count == (try Self.manifest()).objectCount)
        let folder = try Fixtures.temporaryDirectory()
        let none = try ChangesRun(input: .export(Self.export), anchor: .export(anchor), output: folder.appendingPathComponent("c.ndjson").path).run()
        #expect(none.added == 0 && none.deleted == 0)
        let diff = try DiffRun(oldExport: Self.older, newExport: Self.export, output: folder.appendingPathComponent("d.ndjson").path).run()
        #expect(diff.added > 0)
        let back = try DiffRun(oldExport: Self.export, newExport: Self.older, output: folder.appendingPathComponent("b.ndjson").path).run()
        #expect(back.deleted == diff.added && back.added == diff.deleted)
    }

    @Test func dailyStepSumsAddUpToEveryStepSample() throws {
        var run = StatisticsRun(input: .export(Self.export), query: ObjectQuery(types: [Self.steps]))
        run.interval = .year
        let result = try run.run()
        let total = result.intervals.compactMap(\.sum).reduce(0, +)
        #expect(result.unit == "count")
        #expect(total > 0)
        // The merged sum never exceeds the raw sum (overlapping sources are merged, not added).
        let folder = try Fixtures.temporaryDirectory()
        let out = folder.appendingPathComponent("steps.ndjson").path
        _ = try ConversionRun(export: Self.export, query: ObjectQuery(types: [Self.steps]), output: out).run()
        let raw = try Self.lines(out).dropFirst().compactMap { line -> Double? in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return ((object?["quantity"] as? [String: Any])?["value"] as? NSNumber)?.doubleValue
        }.reduce(0, +)
        #expect(total <= raw + 1e-6)
    }

    @Test func anInventoryOfOneTypeSaysWhichSourcesWroteIt() throws {
        let manifest = try Self.manifest()
        let info = try InventoryRun(input: .export(Self.export), query: ObjectQuery(types: [Self.steps])).run()
        #expect(info.document.types.map(\.type) == [Self.steps])
        #expect(info.document.objectCount == manifest.objectsByType[Self.steps])
        #expect(info.document.sources.map(\.count).reduce(0, +) == manifest.objectsByType[Self.steps])
        #expect(info.document.sideFiles?.electrocardiograms == 0 && info.document.sideFiles?.workoutRoutes == 0)
    }

    @Test func theInventoryCountsWhatTheGeneratorWrote() throws {
        let manifest = try Self.manifest()
        let info = try InventoryRun(input: .export(Self.export)).run()
        #expect(info.document.objectCount == manifest.objectCount)
        for (type, count) in manifest.objectsByType {
            #expect(info.document.types.first { $0.type == type }?.count == count, "\(type)")
        }
        #expect(info.document.sideFiles?.electrocardiograms == manifest.electrocardiogramFiles.count)
    }

    @Test func anImportThenAStoreQueryGivesTheExportsObjects() throws {
        let folder = try Fixtures.temporaryDirectory()
        let store = folder.appendingPathComponent("health.sqlite").path
        let first = try ImportRun(export: Self.export, store: store).run().result
        #expect(first.added > 0 && !first.unchanged)
        #expect(try ImportRun(export: Self.export, store: store).run().result.unchanged)
        let fromStore = folder.appendingPathComponent("store.ndjson").path
        let fromExport = folder.appendingPathComponent("export.ndjson").path
        let query = ObjectQuery(types: [Self.steps])
        _ = try SampleQueryRun(input: .store(store), query: query, output: fromStore).run()
        _ = try SampleQueryRun(input: .export(Self.export), query: query, output: fromExport).run()
        #expect(try Data(contentsOf: URL(fileURLWithPath: fromStore)) == Data(contentsOf: URL(fileURLWithPath: fromExport)))
        let changes = try ChangesRun(input: .store(store), limit: 10, output: folder.appendingPathComponent("c.ndjson").path).run()
        #expect(changes.added == 10 && !changes.complete)
    }
}
