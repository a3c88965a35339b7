import Foundation
import HealthTestSupport
import Testing

/// `healthport report`: one self-contained HTML file, its numbers those of `healthport stats`,
/// nothing fetched, nothing of a denied type, every string escaped.
@Suite struct ReportCommandTests {
    static func report(_ arguments: String...) throws -> (status: Int32, html: String, stderr: String, path: String) {
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("health.html").path
        let result = try healthport(["report"] + arguments + ["--output", path])
        let html = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return (result.status, html, result.stderrText, path)
    }

    /// The rows of the table inside the chart of `type`: the start (ISO 8601) and the cells.
    static func tableRows(of type: String, in html: String) -> [(start: String, cells: [String])] {
        guard let figureStart = html.range(of: "data-type=\"\(type)\"") else { return [] }
        let rest = html[figureStart.upperBound...]
        let figure = rest[..<(rest.range(of: "</article>")?.lowerBound ?? rest.endIndex)]
        var rows: [(String, [String])] = []
        for row in figure.components(separatedBy: "<tr><td><time datetime=\"").dropFirst() {
            let start = String(row.prefix { $0 != "\"" })
            let cells = row.components(separatedBy: "<td>").dropFirst().map { String($0.prefix { $0 != "<" }) }
            rows.append((start, cells))
        }
        return rows
    }

    @Test func theSampleReportHasItsSectionsAndFetchesNothing() throws {
        let (status, html, stderr, path) = try Self.report(sampleZip, "--tz", "UTC", "-q")
        #expect(status == 0, "\(stderr)")
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.hasSuffix("</html>\n"))
        for section in ["overview", "activity", "heart", "body", "sleep", "workouts", "quality"] {
            #expect(html.contains("<section id=\"\(section)\""), "no \(section) section")
        }
        // Charts: steps, heart rate, sleep stages, blood pressure, an ECG, a route map.
        #expect(html.contains("data-type=\"HKQuantityTypeIdentifierStepCount\" data-kind=\"cumulative\" data-resolution=\"day\""))
        #expect(html.contains("data-type=\"HKQuantityTypeIdentifierHeartRate\" data-kind=\"discrete\""))
        #expect(html.contains("data-chart=\"sleep\""))
        #expect(html.contains("data-chart=\"blood-pressure\""))
        #expect(html.contains("data-chart=\"ecg\""))
        #expect(html.contains("<svg class=\"route\""))
        // Every chart has an accessible title and its numbers in a table.
        let charts = html.components(separatedBy: "<svg class=\"plot\"").count - 1
        #expect(charts > 5)
        #expect(html.components(separatedBy: "<details><summary>The numbers</summary>").count - 1 == charts)
        // Self-contained: nothing that a browser would fetch.
        for forbidden in ["http://", "https://", "src=", "<link", "<script", "url(", "@import", "<iframe", "<object", "<embed"] {
            #expect(!html.contains(forbidden), "the report contains \(forbidden)")
        }
        // Light, dark and print.
        #expect(html.contains("@media (prefers-color-scheme:dark)"))
        #expect(html.contains("@media print"))
        // Written like every other output: mode 0600.
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    /// The daily step sums (sources merged) and the heart rate's daily minimum, average and
    /// maximum are the text `healthport stats` prints for the same days.
    @Test func theTablesHoldWhatStatsPrints() throws {
        let (status, html, stderr, _) = try Self.report(sampleZip, "--tz", "Europe/Paris", "-q")
        #expect(status == 0, "\(stderr)")
        let steps = try healthport("stats", sampleZip, "--type", "StepCount", "--tz", "Europe/Paris", "--format", "csv", "-q")
        #expect(steps.status == 0)
        let expectedSteps = parseCSV(steps.stdoutText).dropFirst().filter { $0.count > 2 }.map { ($0[0], [$0[2]]) }
        let reportedSteps = Self.tableRows(of: "HKQuantityTypeIdentifierStepCount", in: html)
        #expect(expectedSteps.count >= 14)
        #expect(reportedSteps.map(\.start) == expectedSteps.map(\.0))
        #expect(reportedSteps.map(\.cells) == expectedSteps.map(\.1))
        let heart = try healthport(
            "stats", sampleZip, "--type", "HeartRate", "--tz", "Europe/Paris", "--options", "discreteMin,discreteAverage,discreteMax",
            "--format", "csv", "-q")
        // CSV columns: startDate, endDate, average, minimum, maximum, unit; the report's table:
        // minimum, average, maximum.
        let expectedHeart = parseCSV(heart.stdoutText).dropFirst().filter { $0.count > 4 }.map { ($0[0], [$0[3], $0[2], $0[4]]) }
        let reportedHeart = Self.tableRows(of: "HKQuantityTypeIdentifierHeartRate", in: html)
        #expect(!expectedHeart.isEmpty)
        #expect(reportedHeart.map(\.start) == expectedHeart.map(\.0))
        #expect(reportedHeart.map(\.cells) == expectedHeart.map(\.1))
    }

    static let stepsOnly = """
        {"version": 1, "consumer": {"name": "Step Study"}, "read": {"StepCount": "granted", "HeartRate": "denied"}}
        """

    /// Under a policy granting steps only, nothing of the other types: no section, no chart, no
    /// count, no name, no value, no legend entry.
    @Test func aPolicyLeavesNoTraceOfWhatItDoesNotGrant() throws {
        let policy = try Fixtures.temporaryDirectory().appendingPathComponent("policy.json")
        try Data(Self.stepsOnly.utf8).write(to: policy)
        let (status, html, stderr, _) = try Self.report(sampleZip, "--policy", policy.path, "--tz", "UTC", "-q")
        #expect(status == 0, "\(stderr)")
        #expect(html.contains("data-type=\"HKQuantityTypeIdentifierStepCount\""))
        #expect(html.components(separatedBy: "<article").count - 1 == 1, "one chart: the steps")
        for trace in [
            "Heart", "HeartRate", "Sleep", "Workout", "Running", "Body Mass", "BodyMass", "Blood", "Pressure", "ECG", "Electrocardiogram",
            "Sinus", "Omron", "MyFitnessPal", "Distance", "Energy", "Stand", "Mindful", "Headache", "Clinical", "Audiogram",
            "Vision", "1985-06-15", "FutureMetric", "Passed through", "Warning", "mmHg", "count/min", "kcal",
        ] {
            #expect(!html.contains(trace), "the report under a policy mentions \(trace)")
        }
        for section in ["heart", "body", "sleep", "workouts", "other"] {
            #expect(!html.contains("id=\"\(section)\""), "a \(section) section under a steps-only policy")
        }
        // The overview counts steps only.
        let manifest = try sampleManifest()
        #expect(html.contains("<p>\(manifest.objectsByType["HKQuantityTypeIdentifierStepCount"]!) objects that the policy grants.</p>"))
        // Every heart rate value of the sample is absent from the figures (none is a step sum).
        let heart = try healthport("stats", sampleZip, "--type", "HeartRate", "--tz", "UTC", "--format", "csv", "-q")
        let averages = parseCSV(heart.stdoutText).dropFirst().compactMap { $0.count > 2 ? $0[2] : nil }.filter { $0.contains(".") }
        #expect(!averages.isEmpty)
        for value in averages { #expect(!html.contains(">\(value)<"), "a heart rate average (\(value)) under a steps-only policy") }
    }

    @Test func aHostileSourceNameIsEscaped() throws {
        let hostile = "<script>alert('x')</script>\"onload=\"&amp;"
        let attribute = hostile.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        let xml = """
            <HealthData locale="en_US">
             <ExportDate value="2024-03-10 09:00:00 +0000"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="\(attribute)" unit="count" startDate="2024-03-01 08:00:00 +0000" endDate="2024-03-01 08:10:00 +0000" value="120"/>
             <Workout workoutActivityType="\(attribute)" duration="10" durationUnit="min" sourceName="\(attribute)" startDate="2024-03-01 09:00:00 +0000" endDate="2024-03-01 09:10:00 +0000"/>
            </HealthData>

            """
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("hostile.xml")
        try Data(xml.utf8).write(to: url)
        let (status, html, stderr, _) = try Self.report(url.path, "--tz", "UTC", "-q")
        #expect(status == 0, "\(stderr)")
        #expect(!html.contains("<script"))
        #expect(!html.contains("\"onload="))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;onload=&quot;&amp;amp;"))
    }

    @Test func theStoreMakesTheSameReport() throws {
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("health.sqlite").path
        #expect(try healthport("import", sampleZip, "--store", store, "-q").status == 0)
        let fromStore = try Self.report("--store", store, "--tz", "UTC", "-q")
        #expect(fromStore.status == 0, "\(fromStore.stderr)")
        let fromExport = try Self.report(sampleZip, "--tz", "UTC", "-q")
        let type = "HKQuantityTypeIdentifierStepCount"
        #expect(!Self.tableRows(of: type, in: fromStore.html).isEmpty)
        #expect(Self.tableRows(of: type, in: fromStore.html).map(\.cells) == Self.tableRows(of: type, in: fromExport.html).map(\.cells))
        // The store keeps no reader's report: no data quality section.
        #expect(!fromStore.html.contains("id=\"quality\""))
    }

    @Test func startAndEndLimitThePeriod() throws {
        let (status, html, stderr, _) = try Self.report(sampleZip, "--tz", "UTC", "--start", "2024-03-29", "--end", "2024-04-01", "-q")
        #expect(status == 0, "\(stderr)")
        let rows = Self.tableRows(of: "HKQuantityTypeIdentifierStepCount", in: html)
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { $0.start >= "2024-03-28" && $0.start < "2024-04-02" }, "\(rows.map(\.start))")
    }

    @Test func aReportNeverReplacesItsInputAndRefusesUnit() throws {
        let copy = try Fixtures.temporaryDirectory().appendingPathComponent("export.zip")
        try FileManager.default.copyItem(atPath: sampleZip, toPath: copy.path)
        let before = try Data(contentsOf: copy)
        #expect(try healthport("report", copy.path, "--output", copy.path).status != 0)
        #expect(try Data(contentsOf: copy) == before)
        #expect(try healthport("report", sampleZip, "--unit", "kg").status == 64)
    }
}
