import Foundation
import HealthQuery

/// What to compute (HealthKit: `HKStatisticsOptions`). Sums are for cumulative types (steps,
/// distance), averages, minima and maxima for discrete ones (heart rate); asking a type for an
/// option its aggregation style does not allow is `errorInvalidArgument`, as in HealthKit.
public struct HKStatisticsOptions: OptionSet, Sendable, Hashable {
    /// The options' bits (HealthKit's).
    public let rawValue: UInt
    /// Options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// HealthKit's options, with HealthKit's bits.
    public static let separateBySource = HKStatisticsOptions(rawValue: 1 << 0)
    public static let discreteAverage = HKStatisticsOptions(rawValue: 1 << 1)
    public static let discreteMin = HKStatisticsOptions(rawValue: 1 << 2)
    public static let discreteMax = HKStatisticsOptions(rawValue: 1 << 3)
    public static let cumulativeSum = HKStatisticsOptions(rawValue: 1 << 4)
    public static let mostRecent = HKStatisticsOptions(rawValue: 1 << 5)
    public static let duration = HKStatisticsOptions(rawValue: 1 << 6)

    /// healthport's options (the same bits).
    var engineOptions: StatisticsOptions { StatisticsOptions(rawValue: Int(rawValue)) }
}

/// One interval's statistics (HealthKit: `HKStatistics`), with sources merged as the Health app
/// merges them (`healthport stats`: the highest-priority source counts where sources overlap).
///
/// Quantities are in the type's canonical unit (steps in `count`, distances in `m`, heart rate
/// in `count/min`); convert with `doubleValue(for:)`. A statistic not asked for, or over no
/// samples, is `nil`.
public final class HKStatistics: NSObject, @unchecked Sendable {
    /// The type the statistics summarize.
    public let quantityType: HKQuantityType
    /// The interval (closed at its start, open at its end).
    public let startDate: Date
    public let endDate: Date
    /// The sources with samples in the interval, with `.separateBySource`; else `nil`.
    public let sources: [HKSource]?
    let values: IntervalStatistics
    let unit: HKUnit
    let bySource: [String: IntervalStatistics]

    init(type: HKQuantityType, values: IntervalStatistics, unit: HKUnit, separated: Bool) {
        quantityType = type
        startDate = values.start
        endDate = values.end
        self.values = values
        self.unit = unit
        sources = separated ? values.bySource.map { HKSource(name: $0.source, bundleIdentifier: "") } : nil
        bySource = Dictionary(values.bySource.map { ($0.source, $0.statistics) }, uniquingKeysWith: { a, _ in a })
        super.init()
    }

    private func quantity(_ value: Double?) -> HKQuantity? { value.map { HKQuantity(unit: unit, doubleValue: $0) } }

    /// The merged sum (cumulative types).
    public func sumQuantity() -> HKQuantity? { quantity(values.sum) }
    /// The average (discrete types).
    public func averageQuantity() -> HKQuantity? { quantity(values.average) }
    /// The minimum (discrete types).
    public func minimumQuantity() -> HKQuantity? { quantity(values.minimum) }
    /// The maximum (discrete types).
    public func maximumQuantity() -> HKQuantity? { quantity(values.maximum) }
    /// The value of the sample that ends last.
    public func mostRecentQuantity() -> HKQuantity? { quantity(values.mostRecent) }
    /// The time covered by the samples (the union of their intervals), in seconds.
    public func duration() -> HKQuantity? { values.duration.map { HKQuantity(unit: .second(), doubleValue: $0) } }

    /// The source's own sum, with `.separateBySource`.
    public func sumQuantity(for source: HKSource) -> HKQuantity? { quantity(bySource[source.name]?.sum) }
    /// The source's own average, with `.separateBySource`.
    public func averageQuantity(for source: HKSource) -> HKQuantity? { quantity(bySource[source.name]?.average) }
    /// The source's own minimum, with `.separateBySource`.
    public func minimumQuantity(for source: HKSource) -> HKQuantity? { quantity(bySource[source.name]?.minimum) }
    /// The source's own maximum, with `.separateBySource`.
    public func maximumQuantity(for source: HKSource) -> HKQuantity? { quantity(bySource[source.name]?.maximum) }
}

/// Statistics per calendar interval (HealthKit: `HKStatisticsCollection`): the intervals that
/// hold samples, in time order.
public final class HKStatisticsCollection: NSObject, @unchecked Sendable {
    private let all: [HKStatistics]

    init(_ statistics: [HKStatistics]) {
        all = statistics.sorted { $0.startDate < $1.startDate }
        super.init()
    }

    /// Every interval with samples.
    public func statistics() -> [HKStatistics] { all }

    /// The interval containing `date`, when it holds samples.
    public func statistics(for date: Date) -> HKStatistics? {
        all.first { $0.startDate <= date && date < $0.endDate }
    }

    /// Calls `block` for each interval with samples that starts in `[startDate, endDate)`.
    public func enumerateStatistics(from startDate: Date, to endDate: Date, with block: (HKStatistics, UnsafeMutablePointer<ObjCBool>) -> Void) {
        var stop: ObjCBool = false
        for statistics in all where statistics.startDate >= startDate && statistics.startDate < endDate {
            block(statistics, &stop)
            if stop.boolValue { return }
        }
    }
}
