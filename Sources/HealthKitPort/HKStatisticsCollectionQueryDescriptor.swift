import Foundation
import HealthEngine
import HealthQuery

/// Statistics of one quantity type per calendar interval (HealthKit:
/// `HKStatisticsCollectionQueryDescriptor`), computed by `StatisticsRun`, the run behind
/// `healthport stats`, with the store's policy (a denied type has no statistics, like a type
/// without data).
///
/// Intervals are `intervalComponents` long (`DateComponents(day: 1)`, `hour`, `weekOfYear` or
/// `day: 7`, `month`, `year`, `minute`), aligned with `anchorDate`, in the time zone the samples
/// name most often (their `HKTimeZone` metadata), else the export's UTC offset — not the
/// machine's zone, which says nothing about the person (HealthKit uses the phone's calendar).
public struct HKStatisticsCollectionQueryDescriptor: Sendable {
    /// The one quantity type (and an optional predicate) to summarize.
    public var predicate: HKSamplePredicate<HKQuantitySample>
    /// What to compute; empty asks for the type's defaults (a sum, or average, minimum, maximum).
    public var options: HKStatisticsOptions
    /// An instant the intervals align with.
    public var anchorDate: Date
    /// Each interval's length: one calendar unit and a count.
    public var intervalComponents: DateComponents

    /// A descriptor for statistics of `predicate`'s samples per `intervalComponents`, aligned with `anchorDate`.
    public init(predicate: HKSamplePredicate<HKQuantitySample>, options: HKStatisticsOptions, anchorDate: Date, intervalComponents: DateComponents) {
        self.predicate = predicate
        self.options = options
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
    }

    /// Computes the statistics.
    ///
    /// - Throws: `HKError`: `errorInvalidArgument` for an option the type's aggregation style
    ///   does not allow (a sum of heart rates), interval components other than one unit, or a
    ///   predicate this library cannot read; `errorAuthorizationNotDetermined` for a type the
    ///   policy never decided.
    public func result(for healthStore: HKHealthStore) async throws -> HKStatisticsCollection {
        var query = ObjectQuery(types: [predicate.type.identifier])
        try HKPortPredicate.apply(predicate.nsPredicate, to: &query)
        var run = StatisticsRun(input: healthStore.input, query: try healthStore.authorized(query))
        (run.interval, run.intervalCount) = try Self.interval(intervalComponents)
        run.anchorDate = ISO8601DateFormatter().string(from: anchorDate)
        run.options = options.engineOptions.isEmpty ? nil : options.engineOptions
        let engineRun = run
        let result = try await runEngine { cancellation in try engineRun.run(cancellation: cancellation) }
        let type = HKQuantityType(HKQuantityTypeIdentifier(rawValue: predicate.type.identifier))
        let unit = HKUnit(from: result.unit)
        let separated = result.options.contains(.separateBySource)
        return HKStatisticsCollection(result.intervals.map { HKStatistics(type: type, values: $0, unit: unit, separated: separated) })
    }

    /// The one calendar unit the components name, and how many of it.
    static func interval(_ components: DateComponents) throws -> (CalendarIntervals.Unit, Int) {
        let named: [(Int?, CalendarIntervals.Unit)] = [
            (components.minute, .minute), (components.hour, .hour), (components.day, .day),
            (components.weekOfYear ?? components.weekOfMonth, .week), (components.month, .month), (components.year, .year),
        ]
        let set = named.compactMap { value, unit in value.flatMap { $0 != 0 ? ($0, unit) : nil } }
        guard set.count == 1, let (count, unit) = set.first, count > 0 else {
            throw HKError(.errorInvalidArgument, "intervalComponents must name one positive calendar unit (minute, hour, day, weekOfYear, month or year)")
        }
        if unit == .day && count % 7 == 0 { return (.week, count / 7) }
        return (unit, count)
    }
}
