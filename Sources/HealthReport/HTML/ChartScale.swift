import Foundation
import HealthModel

/// A linear axis with round tick values (1, 2 or 5 times a power of ten), the way people label
/// axes by hand.
struct ChartScale {
    let low: Double
    let high: Double
    let ticks: [Double]

    /// - Parameters:
    ///   - includeZero: bars start at zero; bands and lines need not.
    init(values: [Double], includeZero: Bool, tickCount: Int = 5) {
        var low = values.min() ?? 0
        var high = values.max() ?? 1
        if includeZero { low = min(low, 0); high = max(high, 0) }
        if high == low {
            high += high == 0 ? 1 : abs(high) * 0.1
            low -= low == 0 ? 0 : abs(low) * 0.1
        }
        let rough = (high - low) / Double(max(tickCount, 1))
        let power = pow(10, floor(log10(rough)))
        let step = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= rough } ?? 10 * power
        let first = floor(low / step) * step
        let last = ceil(high / step) * step
        var ticks: [Double] = []
        var tick = first
        while tick <= last + step / 2 && ticks.count < 50 {
            ticks.append(abs(tick) < step / 1e6 ? 0 : tick)
            tick += step
        }
        self.low = first
        self.high = last
        self.ticks = ticks
    }

    /// `value`'s position from `from` (the low end) to `to` (the high end).
    func position(_ value: Double, from: Double, to: Double) -> Double {
        high == low ? from : from + (value - low) / (high - low) * (to - from)
    }

    /// A tick's label: no more decimals than the step needs.
    func label(_ value: Double) -> String {
        let step = ticks.count > 1 ? ticks[1] - ticks[0] : 1
        let decimals = step >= 1 ? 0 : Int(ceil(-log10(step)))
        return ChartNumber.text(value, decimals: min(decimals, 6))
    }
}

/// Numbers as the charts and tables print them.
enum ChartNumber {
    static func text(_ value: Double, decimals: Int) -> String {
        if decimals == 0 { return String(Int64(value.rounded())) }
        var text = String(format: "%.\(decimals)f", value)
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// Coordinates in SVG: one decimal is a tenth of a pixel, enough.
    static func coordinate(_ value: Double) -> String { text(value, decimals: 1) }
}

/// The time axis: seconds since 1970 to x positions, with dated ticks.
struct TimeScale {
    let start: Double
    let end: Double
    /// The offset dates are labelled in.
    let utcOffset: Int32

    func position(_ seconds: Double, from: Double, to: Double) -> Double {
        end == start ? from : from + (seconds - start) / (end - start) * (to - from)
    }

    /// About `count` ticks, each a date label.
    func ticks(count: Int) -> [(seconds: Double, label: String)] {
        guard end > start else { return [(start, date(start))] }
        let n = max(1, count)
        return (0...n).map { i in
            let seconds = start + (end - start) * Double(i) / Double(n)
            return (seconds, date(seconds))
        }
    }

    /// A point's own date, on its own clock: a series crossing a change of clock keeps each
    /// day's date (the axis's offset is the first point's).
    static func date(of timestamp: ExportTimestamp) -> String { String(timestamp.iso8601.prefix(10)) }

    func date(_ seconds: Double) -> String {
        String(ExportTimestamp(secondsSince1970: Int64(seconds), utcOffsetSeconds: utcOffset).iso8601.prefix(10))
    }
}
