import Foundation
import HealthModel
import HealthOutput

/// The charts, drawn as inline SVG by healthport: no script, library or font is needed to see
/// them, and nothing is fetched. Colours are CSS classes (`ReportStyle`), so the same marks
/// follow the light, dark and print palettes.
///
/// Every chart has a `<title>` (its accessible name), axis labels with units and tick labels;
/// its numbers are also in a table next to it (`ReportHTML`).
enum SVGCharts {
    static let width = 720.0
    static let height = 260.0
    static let left = 64.0
    static let right = 16.0
    static let top = 14.0
    static let bottom = 46.0

    static var plotLeft: Double { left }
    static var plotRight: Double { width - right }
    static var plotTop: Double { top }
    static var plotBottom: Double { height - bottom }

    typealias C = ChartNumber

    /// Charts of more points than this carry no tooltip per mark.
    static let tooltipLimit = 400

    /// The frame every chart shares: the SVG element, its title, the grid and the axes.
    static func frame(id: String, title: String, yLabel: String, xLabel: String, yScale: ChartScale, xTicks: [(Double, String)], height: Double = height, body: String) -> String {
        let bottomY = height - bottom
        var svg = "<svg class=\"plot\" viewBox=\"0 0 \(C.coordinate(width)) \(C.coordinate(height))\" role=\"img\" aria-labelledby=\"\(id)-t\">"
        svg += "<title id=\"\(id)-t\">\(HTMLText.escape(title))</title>"
        svg += "<g class=\"grid\">"
        for tick in yScale.ticks {
            let y = yScale.position(tick, from: bottomY, to: top)
            svg += "<line x1=\"\(C.coordinate(left))\" x2=\"\(C.coordinate(plotRight))\" y1=\"\(C.coordinate(y))\" y2=\"\(C.coordinate(y))\"/>"
        }
        svg += "</g><g class=\"tick\">"
        for tick in yScale.ticks {
            let y = yScale.position(tick, from: bottomY, to: top)
            svg += "<text x=\"\(C.coordinate(left - 6))\" y=\"\(C.coordinate(y + 4))\" text-anchor=\"end\">\(yScale.label(tick))</text>"
        }
        for (index, (x, label)) in xTicks.enumerated() {
            // The outer labels lean inwards, so none is cut at the edges.
            let anchor = xTicks.count > 1 && index == xTicks.count - 1 && x > plotRight - 40 ? "end" : (index == 0 && x < left + 40 ? "start" : "middle")
            svg += "<line class=\"mark\" x1=\"\(C.coordinate(x))\" x2=\"\(C.coordinate(x))\" y1=\"\(C.coordinate(bottomY))\" y2=\"\(C.coordinate(bottomY + 5))\"/>"
            // Every other date is left out on a phone, where the chart is half as wide.
            let alternate = index != 0 && index != xTicks.count - 1 && (index % 2 == 1 || index == xTicks.count - 2) ? " class=\"alt\"" : ""
            svg += "<text\(alternate) x=\"\(C.coordinate(x))\" y=\"\(C.coordinate(bottomY + 18))\" text-anchor=\"\(anchor)\">\(HTMLText.escape(label))</text>"
        }
        svg += "</g>"
        svg += "<line class=\"axis\" x1=\"\(C.coordinate(left))\" x2=\"\(C.coordinate(plotRight))\" y1=\"\(C.coordinate(bottomY))\" y2=\"\(C.coordinate(bottomY))\"/>"
        svg += "<text class=\"axis-label\" transform=\"translate(14 \(C.coordinate((top + bottomY) / 2))) rotate(-90)\" text-anchor=\"middle\">\(HTMLText.escape(yLabel))</text>"
        svg += "<text class=\"axis-label\" x=\"\(C.coordinate((left + plotRight) / 2))\" y=\"\(C.coordinate(height - 6))\" text-anchor=\"middle\">\(HTMLText.escape(xLabel))</text>"
        svg += body
        svg += "</svg>"
        return svg
    }

    static func seconds(of resolution: TypeSeries.Resolution) -> Double {
        switch resolution {
        case .day: return 86_400
        case .week: return 604_800
        case .month: return 2_629_746
        }
    }

    /// A type's series: bars of sums for a cumulative type; for a discrete type, the band from
    /// minimum to maximum with the average as a line (a dot for an interval alone).
    static func series(_ series: TypeSeries, id: String) -> String {
        let points = series.points
        guard let first = points.first, let last = points.last else { return "" }
        let step = seconds(of: series.resolution)
        let time = TimeScale(
            start: Double(first.start.secondsSince1970), end: Double(last.start.secondsSince1970) + step,
            utcOffset: first.start.utcOffsetSeconds)
        func x(_ seconds: Double) -> Double { time.position(seconds, from: left, to: plotRight) }
        let ticks = time.ticks(count: 5).map { (x($0.seconds), $0.label) }
        let per = series.resolution.rawValue
        var body = ""
        let scale: ChartScale
        let yLabel: String
        switch series.kind {
        case .cumulative:
            scale = ChartScale(values: points.compactMap(\.sum), includeZero: true)
            yLabel = "Sum per \(per) (\(series.unit))"
            let zero = scale.position(0, from: plotBottom, to: top)
            let barWidth = max(0.4, (x(step) - x(0)) * 0.8)
            body += "<g class=\"bars s1\">"
            // A bar per interval with its value as a tooltip; past `tooltipLimit` bars, one path
            // (a tooltip per bar would weigh more than the chart, and the table has the numbers).
            var path = ""
            for point in points {
                guard let sum = point.sum else { continue }
                let y = scale.position(sum, from: plotBottom, to: top)
                let x0 = x(Double(point.start.secondsSince1970)) + (x(step) - x(0) - barWidth) / 2
                if points.count > tooltipLimit {
                    path += "M\(C.coordinate(x0)) \(C.coordinate(zero))V\(C.coordinate(y))h\(C.coordinate(barWidth))V\(C.coordinate(zero))z"
                } else {
                    body += "<rect x=\"\(C.coordinate(x0))\" y=\"\(C.coordinate(min(y, zero)))\" width=\"\(C.coordinate(barWidth))\" height=\"\(C.coordinate(abs(zero - y)))\">"
                    body += "<title>\(TimeScale.date(of: point.start)): \(ReportNumber.text(sum)) \(HTMLText.escape(series.unit))</title></rect>"
                }
            }
            if !path.isEmpty { body += "<path d=\"\(path)\"/>" }
            body += "</g>"
        case .discrete:
            let values = points.flatMap { [$0.minimum, $0.average, $0.maximum].compactMap { $0 } }
            scale = ChartScale(values: values, includeZero: false)
            yLabel = "Value (\(series.unit))"
            // Runs of consecutive intervals; a gap in the data is a gap in the band.
            var runs: [[TypeSeries.Point]] = []
            for point in points where point.average != nil {
                if let previous = runs.last?.last,
                    Double(point.start.secondsSince1970 - previous.start.secondsSince1970) <= step * 1.6
                {
                    runs[runs.count - 1].append(point)
                } else {
                    runs.append([point])
                }
            }
            func mid(_ p: TypeSeries.Point) -> Double { x(Double(p.start.secondsSince1970) + step / 2) }
            func y(_ v: Double) -> Double { scale.position(v, from: plotBottom, to: top) }
            body += "<g class=\"band s2\">"
            for run in runs where run.count > 1 {
                let upper = run.map { "\(C.coordinate(mid($0))),\(C.coordinate(y($0.maximum ?? $0.average!)))" }
                let lower = run.reversed().map { "\(C.coordinate(mid($0))),\(C.coordinate(y($0.minimum ?? $0.average!)))" }
                body += "<polygon points=\"\((upper + lower).joined(separator: " "))\"/>"
            }
            for run in runs where run.count == 1 {
                let p = run[0]
                body += "<line x1=\"\(C.coordinate(mid(p)))\" x2=\"\(C.coordinate(mid(p)))\" y1=\"\(C.coordinate(y(p.minimum ?? p.average!)))\" y2=\"\(C.coordinate(y(p.maximum ?? p.average!)))\"/>"
            }
            body += "</g><g class=\"line s1\">"
            for run in runs where run.count > 1 {
                body += "<polyline points=\"\(run.map { "\(C.coordinate(mid($0))),\(C.coordinate(y($0.average!)))" }.joined(separator: " "))\"/>"
            }
            body += "</g><g class=\"dots s1\">"
            for run in runs where run.count == 1 {
                let p = run[0]
                body += "<circle cx=\"\(C.coordinate(mid(p)))\" cy=\"\(C.coordinate(y(p.average!)))\" r=\"2.5\"><title>\(TimeScale.date(of: p.start)): \(ReportNumber.text(p.average)) \(HTMLText.escape(series.unit))</title></circle>"
            }
            body += "</g>"
        }
        return frame(id: id, title: series.title, yLabel: yLabel, xLabel: "Date (\(per)s)", yScale: scale, xTicks: ticks, body: body)
    }

    /// The stages stacked per night, in hours; the time in bed as an outline behind them.
    static func sleep(_ nights: [ReportSleepNight], stages: [ReportSleepNight.Stage], id: String) -> String {
        guard !nights.isEmpty else { return "" }
        let stacked = stages.filter { $0 != .inBed }
        let hasInBed = stages.contains(.inBed)
        let totals = nights.map { night in stacked.reduce(0.0) { $0 + (night.seconds[$1] ?? 0) } / 3600 }
        let inBed = nights.map { ($0.seconds[.inBed] ?? 0) / 3600 }
        let scale = ChartScale(values: totals + inBed, includeZero: true)
        let slot = (plotRight - left) / Double(nights.count)
        let barWidth = max(0.4, slot * 0.8)
        var body = ""
        let tickEvery = max(1, Int((Double(nights.count) / 5).rounded(.up)))
        var ticks: [(Double, String)] = []
        for (i, night) in nights.enumerated() {
            let x0 = left + Double(i) * slot + (slot - barWidth) / 2
            if i % tickEvery == 0 { ticks.append((x0 + barWidth / 2, night.night)) }
            if hasInBed, inBed[i] > 0 {
                let y = scale.position(inBed[i], from: plotBottom, to: top)
                body += "<rect class=\"stage-0\" x=\"\(C.coordinate(x0))\" y=\"\(C.coordinate(y))\" width=\"\(C.coordinate(barWidth))\" height=\"\(C.coordinate(plotBottom - y))\"/>"
            }
            var base = 0.0
            for stage in stacked {
                let hours = (night.seconds[stage] ?? 0) / 3600
                guard hours > 0 else { continue }
                let y0 = scale.position(base, from: plotBottom, to: top)
                let y1 = scale.position(base + hours, from: plotBottom, to: top)
                body += "<rect class=\"stage-\(stage.rawValue)\" x=\"\(C.coordinate(x0 + barWidth * 0.15))\" y=\"\(C.coordinate(y1))\" width=\"\(C.coordinate(barWidth * 0.7))\" height=\"\(C.coordinate(y0 - y1))\"><title>\(night.night) \(stage.title): \(ChartNumber.text(hours, decimals: 2)) h</title></rect>"
                base += hours
            }
        }
        return frame(id: id, title: "Sleep stages per night", yLabel: "Hours", xLabel: "Night (the morning it ended)", yScale: scale, xTicks: ticks, body: body)
    }

    /// Each reading's systolic and diastolic pressure, joined by a line.
    static func bloodPressure(_ readings: [BloodPressureReading], id: String) -> String {
        guard let first = readings.first, let last = readings.last else { return "" }
        let time = TimeScale(
            start: Double(first.date.secondsSince1970) - 43_200, end: Double(last.date.secondsSince1970) + 43_200,
            utcOffset: first.date.utcOffsetSeconds)
        func x(_ t: ExportTimestamp) -> Double { time.position(Double(t.secondsSince1970), from: left, to: plotRight) }
        let scale = ChartScale(values: readings.flatMap { [$0.systolic, $0.diastolic] }, includeZero: false)
        func y(_ v: Double) -> Double { scale.position(v, from: plotBottom, to: top) }
        var body = "<g class=\"range\">"
        for r in readings {
            body += "<line x1=\"\(C.coordinate(x(r.date)))\" x2=\"\(C.coordinate(x(r.date)))\" y1=\"\(C.coordinate(y(r.systolic)))\" y2=\"\(C.coordinate(y(r.diastolic)))\"/>"
        }
        body += "</g>"
        let marks: [(String, String, (BloodPressureReading) -> Double)] = [("Systolic", "s3", { $0.systolic }), ("Diastolic", "s1", { $0.diastolic })]
        for (name, cls, value) in marks {
            body += "<g class=\"dots \(cls)\">"
            for r in readings {
                body += "<circle cx=\"\(C.coordinate(x(r.date)))\" cy=\"\(C.coordinate(y(value(r))))\" r=\"2.5\"><title>\(TimeScale.date(of: r.date)) \(name): \(ReportNumber.text(value(r))) mmHg</title></circle>"
            }
            body += "</g>"
        }
        let ticks = time.ticks(count: 5).map { (time.position($0.seconds, from: left, to: plotRight), $0.label) }
        return frame(id: id, title: "Blood pressure readings", yLabel: "Pressure (mmHg)", xLabel: "Date", yScale: scale, xTicks: ticks, body: body)
    }

    /// A route as a small map: the points projected (equirectangular, longitude scaled by the
    /// cosine of the latitude), start and end marked. No tiles: nothing is fetched.
    static func route(_ points: [WorkoutEntry.Point], id: String, title: String) -> String {
        guard !points.isEmpty else { return "" }
        let size = 180.0, margin = 10.0
        let meanLatitude = points.reduce(0) { $0 + $1.latitude } / Double(points.count)
        let k = cos(meanLatitude * .pi / 180)
        let xs = points.map { $0.longitude * k }, ys = points.map { -$0.latitude }
        let minX = xs.min()!, maxX = xs.max()!, minY = ys.min()!, maxY = ys.max()!
        let span = max(maxX - minX, maxY - minY, 1e-9)
        let scale = (size - 2 * margin) / span
        let offsetX = margin + (size - 2 * margin - (maxX - minX) * scale) / 2
        let offsetY = margin + (size - 2 * margin - (maxY - minY) * scale) / 2
        func px(_ i: Int) -> String {
            "\(C.coordinate(offsetX + (xs[i] - minX) * scale)),\(C.coordinate(offsetY + (ys[i] - minY) * scale))"
        }
        var svg = "<svg class=\"route\" viewBox=\"0 0 \(Int(size)) \(Int(size))\" role=\"img\" aria-labelledby=\"\(id)-t\"><title id=\"\(id)-t\">\(HTMLText.escape(title))</title>"
        svg += "<rect class=\"map\" x=\"0\" y=\"0\" width=\"\(Int(size))\" height=\"\(Int(size))\"/>"
        svg += "<polyline class=\"path\" points=\"\(points.indices.map(px).joined(separator: " "))\"/>"
        let start = px(0).split(separator: ","), end = px(points.count - 1).split(separator: ",")
        svg += "<circle class=\"start\" cx=\"\(start[0])\" cy=\"\(start[1])\" r=\"4\"/>"
        svg += "<circle class=\"end\" cx=\"\(end[0])\" cy=\"\(end[1])\" r=\"3\"/>"
        let metres = span * 111_320
        svg += "<text class=\"scale\" x=\"\(Int(size - 6))\" y=\"\(Int(size - 6))\" text-anchor=\"end\">\(ReportNumber.distance(metres)) across</text>"
        return svg + "</svg>"
    }

    /// An ECG's first seconds on a paper-like grid (0.2 s).
    static func electrocardiogram(_ trace: ElectrocardiogramTrace, id: String, title: String) -> String {
        guard !trace.voltages.isEmpty, trace.samplingFrequency > 0 else { return "" }
        let h = 200.0
        let bottomY = h - bottom
        let seconds = Double(trace.voltages.count) / trace.samplingFrequency
        let scale = ChartScale(values: trace.voltages, includeZero: true, tickCount: 4)
        func x(_ t: Double) -> Double { left + t / seconds * (plotRight - left) }
        func y(_ v: Double) -> Double { scale.position(v, from: bottomY, to: top) }
        var body = "<g class=\"paper\">"
        var t = 0.2
        while t < seconds {
            body += "<line x1=\"\(C.coordinate(x(t)))\" x2=\"\(C.coordinate(x(t)))\" y1=\"\(C.coordinate(top))\" y2=\"\(C.coordinate(bottomY))\"/>"
            t += 0.2
        }
        body += "</g>"
        let points = trace.voltages.enumerated().map { "\(C.coordinate(x(Double($0.offset) / trace.samplingFrequency))),\(C.coordinate(y($0.element)))" }
        body += "<polyline class=\"trace\" points=\"\(points.joined(separator: " "))\"/>"
        var ticks: [(Double, String)] = []
        if seconds >= 2 {
            var second = 0.0
            while second <= seconds + 1e-9 {
                ticks.append((x(second), "\(Int(second)) s"))
                second += 1
            }
        } else {
            ticks = (0...4).map { i in (x(seconds * Double(i) / 4), "\(ChartNumber.text(seconds * Double(i) / 4, decimals: 3)) s") }
        }
        return frame(id: id, title: title, yLabel: "Voltage (\(trace.unit))", xLabel: "Time from the start of the recording (s)", yScale: scale, xTicks: ticks, height: h, body: body)
    }
}

/// Numbers in the report's tables: the same text `healthport stats` prints for the same value.
enum ReportNumber {
    static func text(_ value: Double?) -> String { StatisticsWriter.number(value) }

    static func distance(_ metres: Double) -> String {
        metres >= 1000 ? "\(ChartNumber.text(metres / 1000, decimals: 1)) km" : "\(Int(metres.rounded())) m"
    }
}
