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

    /// The typical day of each week is `healthport days --period week`'s daily average (levels:
    /// their average), column for column, rounded as the day table rounds its days.
    @Test func theTypicalDaysAreTheDayTablesWeeks() throws {
        let output = try Fixtures.temporaryDirectory().appendingPathComponent("report.html").path
        var run = ReportRun(input: .export(Self.export), output: output)
        run.timeZone = TimeZone(identifier: "Europe/Paris")
        let summary = try run.run()
        #expect(summary.sections.prefix(2) == ["overview", "averages"])
        let html = try String(contentsOfFile: output, encoding: .utf8)
        let section = try #require(html.components(separatedBy: "<section id=\"averages\"").dropFirst().first?.components(separatedBy: "</section>").first)
        let rows = section.components(separatedBy: "<tr><th scope=\"row\"><time datetime=\"").dropFirst().map { row in
            (String(row.prefix { $0 != "\"" }), row.components(separatedBy: "<td>").dropFirst().map { String($0.prefix { $0 != "<" }) })
        }

        var days = DayTableRun(input: .export(Self.export))
        days.settings.timeZone = TimeZone(identifier: "Europe/Paris")
        days.period = .week
        let result = try days.run()
        // Two whole weeks from Monday 25 March, and the night that ended on Monday 8 April.
        #expect(rows.map(\.0) == ["2024-03-25", "2024-04-01", "2024-04-08"])
        #expect(rows.map(\.0) == result.periods.map(\.start.text))
        #expect(section.contains("2024-04-08</time> (partial)"))
        for (row, period) in zip(rows, result.periods) {
            #expect(row.1.first == String(period.days))
            let expected = result.table.columns.map { index -> Double? in
                let column = DayColumn.all[index]
                return period.averages[index].map { column.rounded($0) }
            }
            #expect(row.1.dropFirst().map { Double($0) } == expected, "\(row.0)")
        }
        // Steps in the first week: a week of the sample's daily steps, averaged by hand.
        let steps = try #require(DayColumn.all.firstIndex { $0.name == "steps" })
        let firstWeek = result.table.rows.prefix(7).compactMap { $0.values[steps] }
        #expect(firstWeek.count == 7)
        let stepsCell = try #require(result.table.columns.firstIndex(of: steps))
        #expect(Double(rows[0].1[stepsCell + 1]) == (firstWeek.reduce(0, +) / 7).rounded())
    }

    /// The sample crosses the change to summer time (Sunday 31 March 2024 in Paris): each daily
    /// bar is dated by its own local day, as `stats` dates it, on both sides of the change; and a
    /// workout's start is on the Paris clock of its day (+02:00 after the change).
    @Test func aSeriesAcrossAChangeOfClockKeepsEachDaysDate() throws {
        let output = try Fixtures.temporaryDirectory().appendingPathComponent("report.html").path
        var run = ReportRun(input: .export(Self.export), output: output)
        run.timeZone = TimeZone(identifier: "Europe/Paris")
        _ = try run.run()
        let html = try String(contentsOfFile: output, encoding: .utf8)
        let figure = try #require(
            html.components(separatedBy: "data-type=\"HKQuantityTypeIdentifierStepCount\"").dropFirst().first?
                .components(separatedBy: "</article>").first)
        let bars = figure.components(separatedBy: "<title>").dropFirst().compactMap { title -> String? in
            let date = String(title.prefix(10))
            return date.count == 10 && date.hasPrefix("2024-") ? date : nil
        }
        var stats = StatisticsRun(input: .export(Self.export), query: ObjectQuery(types: ["HKQuantityTypeIdentifierStepCount"]))
        stats.timeZone = TimeZone(identifier: "Europe/Paris")
        let days = try stats.run().table.rows.map { String($0.start.iso8601.prefix(10)) }
        #expect(days.contains("2024-03-31") && days.contains("2024-04-01"))
        #expect(bars == days)
        let workouts = html.components(separatedBy: "<tr><td><time datetime=\"").dropFirst().map { String($0.prefix(25)) }
        let april = workouts.filter { $0.hasPrefix("2024-04") }
        #expect(!april.isEmpty && april.allSatisfy { $0.hasSuffix("+02:00") }, "\(april)")
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
