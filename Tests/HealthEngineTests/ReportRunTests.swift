import Foundation
import HealthEngine
import HealthModel
import HealthOutput
import HealthQuery
import HealthTestSupport
import Testing

/// `ReportRun`: long series reduced to weeks with the statistics of weeks (not averaged days),
/// a cancelled run leaves no file, the summary names the sections written.
@Suite struct ReportRunTests {
    static let export = Fixtures.sampleData.appendingPathComponent("export.zip").path

    static func tableRows(of type: String, in html: String) -> [(start: String, cells: [String])] {
        guard let figureStart = html.range(of: "data-type=\"\(type)\"") else { return [] }
        let rest = html[figureStart.upperBound...]
        let figure = rest[..<(rest.range(of: "</article>")?.lowerBound ?? rest.endIndex)]
        return figure.components(separatedBy: "<tr><td><time datetime=\"").dropFirst().map { row in
            (String(row.prefix { $0 != "\"" }), row.components(separatedBy: "<td>").dropFirst().map { String($0.prefix { $0 != "<" }) })
        }
    }

    @Test func aLongSeriesIsDrawnPerWeekWithTheWeeksStatistics() throws {
        let output = try Fixtures.temporaryDirectory().appendingPathComponent("report.html").path
        var run = ReportRun(input: .export(Self.export), output: output)
        run.timeZone = TimeZone(identifier: "Europe/Paris")
        run.maximumPoints = 5
        let summary = try run.run()
        #expect(summary.sections.contains("activity"))
        let html = try String(contentsOfFile: output, encoding: .utf8)
        #expect(html.contains("data-type=\"HKQuantityTypeIdentifierStepCount\" data-kind=\"cumulative\" data-resolution=\"week\""))
        var stats = StatisticsRun(input: .export(Self.export), query: ObjectQuery(types: ["HKQuantityTypeIdentifierStepCount"]))
        stats.interval = .week
        stats.timeZone = TimeZone(identifier: "Europe/Paris")
        let weeks = try stats.run().table.rows
        let rows = Self.tableRows(of: "HKQuantityTypeIdentifierStepCount", in: html)
        #expect(rows.count == weeks.count)
        #expect(rows.map(\.start) == weeks.map(\.start.iso8601))
        #expect(rows.map(\.cells) == weeks.map { [StatisticsWriter.number($0.values[0])] })
    }

    @Test func aCancelledReportWritesNothing() throws {
        let folder = try Fixtures.temporaryDirectory()
        let output = folder.appendingPathComponent("report.html")
        let cancellation = RunCancellation()
        cancellation.cancel()
        #expect(throws: RunError.self) { try ReportRun(input: .export(Self.export), output: output.path).run(cancellation: cancellation) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
