import HealthJSON
import HealthModel
import HealthOutput

/// A `HealthReport` as one self-contained HTML file: inline CSS, inline SVG, no script, no
/// external reference of any kind (no `src`, no link, no font, no fetch), so the page opens
/// offline, and viewing it tells no server anything.
///
/// Sections with nothing to show are left out, with their entries in the contents. Every
/// string from the data is escaped (`HTMLText`). Each chart is followed by its numbers in a
/// table inside `<details>`, for screen readers and for copying.
public enum ReportHTML {
    /// Writes the page into `out`, flushing as it goes.
    public static func write(_ report: HealthReport, into out: OutputBuffer) throws {
        let w = HTMLWriter(out)
        let sections = sections(of: report)
        w.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        w.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        w.raw("<meta name=\"generator\" content=\"healthport\">\n<meta name=\"color-scheme\" content=\"light dark\">\n")
        // Nothing may be fetched: a policy that forbids it even if some markup tried.
        w.raw("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n")
        w.raw("<title>Health report</title>\n<style>\n\(ReportStyle.css)\n</style>\n</head>\n<body>\n<main>\n")
        w.raw("<header>\n<h1>Health report</h1>\n")
        if let period = report.period {
            w.raw("<p>From <time datetime=\"\(HTMLText.escape(period.first))\">\(HTMLText.escape(String(period.first.prefix(10))))</time> to <time datetime=\"\(HTMLText.escape(period.last))\">\(HTMLText.escape(String(period.last.prefix(10))))</time>; days cut in the time zone ")
            w.text(report.timeZone)
            w.raw(".</p>\n")
        }
        if report.isUnderPolicy {
            w.raw("<p class=\"note\">Limited by an authorization policy: this report shows only what the policy grants.</p>\n")
        }
        w.raw("<nav aria-label=\"Contents\"><ul>")
        for section in sections { w.raw("<li><a href=\"#\(section.rawValue)\">\(section.title)</a></li>") }
        w.raw("</ul></nav>\n</header>\n")
        var chart = 0
        func nextID() -> String {
            chart += 1
            return "c\(chart)"
        }
        for section in sections {
            w.raw("<section id=\"\(section.rawValue)\" aria-labelledby=\"\(section.rawValue)-h\">\n<h2 id=\"\(section.rawValue)-h\">\(section.title)</h2>\n")
            switch section {
            case .overview: overview(report, w)
            case .averages: if let averages = report.averages { self.averages(averages, w) }
            case .activity, .heart, .body, .other:
                if section == .body && !report.bloodPressure.isEmpty { bloodPressure(report.bloodPressure, id: nextID(), w) }
                for series in seriesOf(section, report) {
                    self.series(series, id: nextID(), w)
                    try w.flushIfNeeded()
                }
                if section == .heart {
                    for trace in report.electrocardiograms {
                        electrocardiogram(trace, id: nextID(), w)
                        try w.flushIfNeeded()
                    }
                }
            case .sleep: sleep(report.sleep, id: nextID(), w)
            case .workouts: workouts(report.workouts, w)
            case .quality: if let quality = report.quality { self.quality(quality, w) }
            }
            w.raw("</section>\n")
            try w.flushIfNeeded()
        }
        w.raw("<footer><p class=\"muted\">Made by healthport from an Apple Health export; nothing in this file is fetched from anywhere.</p></footer>\n")
        w.raw("</main>\n</body>\n</html>\n")
        try w.flushIfNeeded()
    }

    /// The sections the page has for `report`, in order.
    public static func sections(of report: HealthReport) -> [ReportSection] {
        ReportSection.allCases.filter { has($0, report) }
    }

    static func has(_ section: ReportSection, _ report: HealthReport) -> Bool {
        switch section {
        case .overview: return true
        case .averages: return !(report.averages?.rows.isEmpty ?? true)
        case .activity, .other: return !seriesOf(section, report).isEmpty
        case .heart: return !seriesOf(section, report).isEmpty || !report.electrocardiograms.isEmpty
        case .body: return !seriesOf(section, report).isEmpty || !report.bloodPressure.isEmpty
        case .sleep: return !report.sleep.isEmpty
        case .workouts: return !report.workouts.isEmpty
        case .quality: return report.quality != nil
        }
    }

    static func seriesOf(_ section: ReportSection, _ report: HealthReport) -> [TypeSeries] {
        report.series.filter { !$0.points.isEmpty && ReportSection.of($0.identifier).section == section }
            .sorted { (ReportSection.of($0.identifier).order, $0.identifier) < (ReportSection.of($1.identifier).order, $1.identifier) }
    }

    // MARK: Sections

    static func overview(_ report: HealthReport, _ w: HTMLWriter) {
        let o = report.overview
        w.raw("<p>\(o.objectCount) objects")
        if report.isUnderPolicy { w.raw(" that the policy grants") }
        w.raw(".</p>\n")
        if !o.types.isEmpty {
            w.raw("<details class=\"types\"><summary>Objects per type (\(o.types.count) types)</summary>\n<div class=\"scroll\"><table><thead><tr><th scope=\"col\">Type</th><th scope=\"col\" class=\"n\">Count</th><th scope=\"col\">First</th><th scope=\"col\">Last</th></tr></thead><tbody>\n")
            for t in o.types {
                w.raw("<tr><td>")
                w.text(ReportNames.words(TypeCatalogue.shortName(of: t.identifier)))
                w.raw("</td><td class=\"n\">\(t.count)</td><td>")
                w.text(t.first.map { String($0.prefix(10)) } ?? "")
                w.raw("</td><td>")
                w.text(t.last.map { String($0.prefix(10)) } ?? "")
                w.raw("</td></tr>\n")
            }
            w.raw("</tbody></table></div></details>\n")
        }
        for (title, rows) in [("Sources", o.sources), ("Devices", o.devices)] where !rows.isEmpty {
            w.raw("<h3>\(title)</h3>\n<div class=\"scroll\"><table><thead><tr><th scope=\"col\">Name</th><th scope=\"col\" class=\"n\">Objects</th></tr></thead><tbody>\n")
            for row in rows {
                w.raw("<tr><td>")
                w.text(row.name)
                w.raw("</td><td class=\"n\">\(row.count)</td></tr>\n")
            }
            w.raw("</tbody></table></div>\n")
        }
    }

    static func series(_ series: TypeSeries, id: String, _ w: HTMLWriter) {
        w.raw("<article class=\"chart\" data-type=\"")
        w.text(series.identifier)
        w.raw("\" data-kind=\"\(series.kind.rawValue)\" data-resolution=\"\(series.resolution.rawValue)\">\n<h3>")
        w.text(series.title)
        w.raw("</h3>\n<figure>")
        w.raw(SVGCharts.series(series, id: id))
        w.raw("\n<figcaption>")
        switch series.kind {
        case .cumulative:
            w.raw("Sum per \(series.resolution.rawValue), sources merged as <code>healthport stats</code> merges them (where sources overlap, the one with the highest priority counts)")
        case .discrete:
            w.raw("Per \(series.resolution.rawValue): the band spans the minimum to the maximum, the line is the average")
        }
        w.raw("; unit ")
        w.text(series.unit)
        w.raw(".</figcaption></figure>\n<details><summary>The numbers</summary><div class=\"scroll\"><table class=\"num\"><thead><tr><th scope=\"col\">Start</th>")
        switch series.kind {
        case .cumulative: w.raw("<th scope=\"col\">Sum (\(HTMLText.escape(series.unit)))</th>")
        case .discrete:
            for name in ["Minimum", "Average", "Maximum"] { w.raw("<th scope=\"col\">\(name) (\(HTMLText.escape(series.unit)))</th>") }
        }
        w.raw("</tr></thead><tbody>\n")
        for point in series.points {
            let start = point.start.iso8601
            w.raw("<tr><td><time datetime=\"\(start)\">\(start.prefix(10))</time></td>")
            switch series.kind {
            case .cumulative: w.raw("<td>\(ReportNumber.text(point.sum))</td>")
            case .discrete:
                w.raw("<td>\(ReportNumber.text(point.minimum))</td><td>\(ReportNumber.text(point.average))</td><td>\(ReportNumber.text(point.maximum))</td>")
            }
            w.raw("</tr>\n")
        }
        w.raw("</tbody></table></div></details>\n</article>\n")
    }

    static func bloodPressure(_ readings: [BloodPressureReading], id: String, _ w: HTMLWriter) {
        w.raw("<article class=\"chart\" data-chart=\"blood-pressure\">\n<h3>Blood pressure</h3>\n")
        w.raw("<ul class=\"legend\"><li style=\"--swatch:var(--s3)\">Systolic</li><li style=\"--swatch:var(--s1)\">Diastolic</li></ul>\n")
        w.raw("<figure>")
        w.raw(SVGCharts.bloodPressure(readings, id: id))
        w.raw("\n<figcaption>Each reading (a blood pressure correlation: systolic and diastolic measured together); unit mmHg.</figcaption></figure>\n")
        w.raw("<details><summary>The numbers</summary><div class=\"scroll\"><table><thead><tr><th scope=\"col\">Date</th><th scope=\"col\" class=\"n\">Systolic (mmHg)</th><th scope=\"col\" class=\"n\">Diastolic (mmHg)</th></tr></thead><tbody>\n")
        for r in readings {
            w.raw("<tr><td><time datetime=\"\(r.date.iso8601)\">\(r.date.iso8601.prefix(16).replacingOccurrences(of: "T", with: " "))</time></td><td class=\"n\">\(ReportNumber.text(r.systolic))</td><td class=\"n\">\(ReportNumber.text(r.diastolic))</td></tr>\n")
        }
        w.raw("</tbody></table></div></details>\n</article>\n")
    }

    static func electrocardiogram(_ trace: ElectrocardiogramTrace, id: String, _ w: HTMLWriter) {
        let when = trace.recorded.map { $0.iso8601.prefix(16).replacingOccurrences(of: "T", with: " ") } ?? "undated"
        let title = "ECG \(when)" + (trace.classification.map { ": \($0)" } ?? "")
        w.raw("<article class=\"chart\" data-chart=\"ecg\">\n<h3>")
        w.text(title)
        w.raw("</h3>\n<figure>")
        w.raw(SVGCharts.electrocardiogram(trace, id: id, title: title))
        w.raw("\n<figcaption>The first \(ChartNumber.text(Double(trace.voltages.count) / trace.samplingFrequency, decimals: 2)) seconds, \(ChartNumber.text(trace.samplingFrequency, decimals: 3)) samples per second as drawn; unit ")
        w.text(trace.unit)
        w.raw(".</figcaption></figure>\n<details><summary>The numbers</summary><div class=\"scroll\"><table class=\"num\"><thead><tr><th scope=\"col\">Time (s)</th><th scope=\"col\">Voltage (")
        w.text(trace.unit)
        w.raw(")</th></tr></thead><tbody>\n")
        for (i, v) in trace.voltages.enumerated() {
            w.raw("<tr><td>\(ChartNumber.text(Double(i) / trace.samplingFrequency, decimals: 4))</td><td>\(ReportNumber.text(v))</td></tr>\n")
        }
        w.raw("</tbody></table></div></details>\n</article>\n")
    }

    static func sleep(_ nights: [ReportSleepNight], id: String, _ w: HTMLWriter) {
        // Only the stages that occur: no legend entry for what is not there.
        let present = ReportSleepNight.Stage.allCases.filter { stage in nights.contains { ($0.seconds[stage] ?? 0) > 0 } }
        let order: [ReportSleepNight.Stage] = [.inBed, .deep, .core, .rem, .asleepUnspecified, .awake]
        let stages = order.filter(present.contains)
        w.raw("<article class=\"chart\" data-chart=\"sleep\">\n<h3>Sleep stages per night</h3>\n<ul class=\"legend\">")
        let swatch: [ReportSleepNight.Stage: String] = [.inBed: "s4", .asleepUnspecified: "s5", .awake: "s3", .core: "s2", .deep: "s1", .rem: "s6"]
        for stage in stages {
            w.raw("<li\(stage == .inBed ? " class=\"hollow\"" : "") style=\"--swatch:var(--\(swatch[stage]!))\">\(stage.title)</li>")
        }
        w.raw("</ul>\n")
        w.raw("<figure>")
        w.raw(SVGCharts.sleep(nights, stages: stages, id: id))
        w.raw("\n<figcaption>Hours per stage and night (a night is dated by its morning)\(stages.contains(.inBed) ? "; the outline is the time in bed" : "").</figcaption></figure>\n")
        w.raw("<details><summary>The numbers</summary><div class=\"scroll\"><table><thead><tr><th scope=\"col\">Night</th>")
        for stage in stages { w.raw("<th scope=\"col\" class=\"n\">\(stage.title) (h)</th>") }
        w.raw("</tr></thead><tbody>\n")
        for night in nights {
            w.raw("<tr><td>\(HTMLText.escape(night.night))</td>")
            for stage in stages { w.raw("<td class=\"n\">\(ChartNumber.text((night.seconds[stage] ?? 0) / 3600, decimals: 2))</td>") }
            w.raw("</tr>\n")
        }
        w.raw("</tbody></table></div></details>\n</article>\n")
    }

    /// A typical day of each week or month: each column's average per day with a value, as
    /// `healthport days --period` gives it (`_daily_average` for totals, `_average` for levels).
    static func averages(_ averages: ReportAverages, _ w: HTMLWriter) {
        let period = averages.resolution == .week ? "week" : "month"
        // Sleep is named only where the table has it: under a policy, nothing hints at a hidden type.
        let hasSleep = averages.columns.contains { DayColumn.all[$0].name.hasPrefix("asleep") }
        w.raw("<p class=\"note\">Each \(period)'s average per day with a value, from the same days as <code>healthport days --period \(period)</code>: sources merged as the Health app merges them\(hasSleep ? ", sleep the night that ended that morning" : ""). A partial \(period) is one the data (or the window) cuts.</p>\n")
        w.raw("<div class=\"scroll\"><table class=\"num\"><thead><tr><th scope=\"col\">\(period == "week" ? "Week of" : "Month")</th><th scope=\"col\">Days</th>")
        for index in averages.columns {
            let column = DayColumn.all[index]
            w.raw("<th scope=\"col\">")
            w.text(column.title + (Self.unitLabel(column).map { " (\($0))" } ?? ""))
            w.raw("</th>")
        }
        w.raw("</tr></thead><tbody>\n")
        for row in averages.rows {
            let label = averages.resolution == .week ? row.start.text : String(row.start.text.prefix(7))
            w.raw("<tr><th scope=\"row\"><time datetime=\"\(label)\">\(label)</time>\(row.isPartial ? " (partial)" : "")</th><td>\(row.days)</td>")
            for index in averages.columns {
                let column = DayColumn.all[index]
                w.raw("<td>\(row.averages[index].map { ChartNumber.text($0, decimals: column.decimals) } ?? "")</td>")
            }
            w.raw("</tr>\n")
        }
        w.raw("</tbody></table></div>\n")
    }

    /// A column's unit as a person reads it; `nil` for counts (steps, flights, workouts).
    static func unitLabel(_ column: DayColumn) -> String? {
        if column.name.hasSuffix("_hours") { return "h" }
        switch column.unit {
        case "count": return nil
        case "count/min": return column.name.hasSuffix("_bpm") ? "bpm" : "/min"
        default: return column.unit
        }
    }

    static func workouts(_ workouts: [WorkoutEntry], _ w: HTMLWriter) {
        w.raw("<div class=\"scroll\"><table class=\"workouts\"><thead><tr><th scope=\"col\">Start</th><th scope=\"col\">Activity</th><th scope=\"col\" class=\"n\">Minutes</th><th scope=\"col\" class=\"n\">Distance</th><th scope=\"col\" class=\"n\">Energy</th><th scope=\"col\">Source</th></tr></thead><tbody>\n")
        for workout in workouts {
            w.raw("<tr><td><time datetime=\"\(workout.start.iso8601)\">\(workout.start.iso8601.prefix(16).replacingOccurrences(of: "T", with: " "))</time></td><td>")
            w.text(workout.activityTitle)
            w.raw("</td><td class=\"n\">\(workout.duration.map { ChartNumber.text($0, decimals: 1) } ?? "")</td><td class=\"n\">")
            w.text(workout.distance?.text ?? "")
            w.raw("</td><td class=\"n\">")
            w.text(workout.energy?.text ?? "")
            w.raw("</td><td>")
            w.text(workout.source)
            w.raw("</td></tr>\n")
        }
        w.raw("</tbody></table></div>\n")
        let withRoutes = workouts.filter { !$0.routes.isEmpty }
        guard !withRoutes.isEmpty else { return }
        w.raw("<h3>Routes</h3>\n<p class=\"note\">Each route drawn from its GPX points (north up; green: start, dark: end). No map tiles: nothing is fetched.</p>\n<div class=\"routes\">\n")
        var index = 0
        for workout in withRoutes {
            for route in workout.routes where !route.isEmpty {
                index += 1
                let when = workout.start.iso8601.prefix(16).replacingOccurrences(of: "T", with: " ")
                let title = "\(workout.activityTitle), \(when)"
                w.raw("<figure>")
                w.raw(SVGCharts.route(route, id: "r\(index)", title: title))
                w.raw("<figcaption>")
                w.text(title)
                w.raw("</figcaption></figure>\n")
            }
        }
        w.raw("</div>\n")
    }

    static func quality(_ q: DataQuality, _ w: HTMLWriter) {
        w.raw("<dl>\n<dt>Input</dt><dd>")
        w.text(q.input)
        w.raw(" (")
        w.text(q.container)
        w.raw(")</dd>\n")
        if let date = q.exportDate {
            w.raw("<dt>Exported</dt><dd>")
            w.text(date)
            w.raw("</dd>\n")
        }
        // Only what there is: a line reading "0" for a kind of file would name a kind of data
        // that a policy may have hidden.
        let lines: [(String, Int, String)] = [
            ("Workout route files", q.workoutRouteFiles, ""), ("ECG files", q.electrocardiogramFiles, ""),
            ("Clinical record files", q.clinicalRecordFiles, ""), ("Missing route files", q.missingRouteFiles, ""),
            ("Missing clinical record files", q.missingClinicalRecordFiles, ""),
            ("Repaired bytes", q.replacedByteCount, " (characters XML forbids, replaced)"),
        ]
        for (name, count, note) in lines where count > 0 { w.raw("<dt>\(name)</dt><dd>\(count)\(note)</dd>\n") }
        w.raw("</dl>\n")
        for (title, rows, column) in [("Passed through (not in healthport's model)", q.passedThrough, "Elements"), ("Warnings", q.warnings, "Times")] where !rows.isEmpty {
            w.raw("<h3>\(title)</h3>\n<div class=\"scroll\"><table><thead><tr><th scope=\"col\">\(title == "Warnings" ? "Warning" : "Element")</th><th scope=\"col\" class=\"n\">\(column)</th></tr></thead><tbody>\n")
            for row in rows {
                w.raw("<tr><td>")
                w.text(row.name)
                w.raw("</td><td class=\"n\">\(row.count)</td></tr>\n")
            }
            w.raw("</tbody></table></div>\n")
        }
    }
}
