import HealthModel

/// What to compute per interval (HealthKit: `HKStatisticsOptions`).
public struct StatisticsOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let separateBySource = StatisticsOptions(rawValue: 1 << 0)
    public static let discreteAverage = StatisticsOptions(rawValue: 1 << 1)
    public static let discreteMin = StatisticsOptions(rawValue: 1 << 2)
    public static let discreteMax = StatisticsOptions(rawValue: 1 << 3)
    public static let cumulativeSum = StatisticsOptions(rawValue: 1 << 4)
    public static let mostRecent = StatisticsOptions(rawValue: 1 << 5)
    public static let duration = StatisticsOptions(rawValue: 1 << 6)
    /// The samples, counted once where sources overlap: for category types (sleep, mindful
    /// sessions, events). Not one of HealthKit's options (HealthKit has no statistics of
    /// category types); healthport's.
    public static let count = StatisticsOptions(rawValue: 1 << 7)

    static let names: [(String, StatisticsOptions)] = [
        ("separateBySource", .separateBySource), ("discreteAverage", .discreteAverage), ("discreteMin", .discreteMin),
        ("discreteMax", .discreteMax), ("cumulativeSum", .cumulativeSum), ("mostRecent", .mostRecent),
        ("discreteMostRecent", .mostRecent), ("duration", .duration), ("count", .count),
    ]

    /// Parses `cumulativeSum,discreteAverage,…` (HealthKit's names).
    public init(parsing text: String) throws {
        var options: StatisticsOptions = []
        for part in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
            guard let option = Self.names.first(where: { $0.0.lowercased() == part.lowercased() })?.1 else {
                throw QueryError(
                    .errorInvalidArgument,
                    "unknown statistics option '\(part)' (cumulativeSum, discreteAverage, discreteMin, discreteMax, mostRecent, duration, count, separateBySource)",
                    argument: .statisticsOptions)
            }
            options.insert(option)
        }
        self = options
    }

    /// The default for a type: the sum for cumulative types, the average for discrete ones, the
    /// time and the count for category types (`nil` style).
    public static func defaults(for style: AggregationStyle?) -> StatisticsOptions {
        guard let style else { return [.duration, .count] }
        return style == .cumulative ? .cumulativeSum : .discreteAverage
    }

    /// HealthKit raises for a discrete option on a cumulative type and the reverse; healthport
    /// reports `errorInvalidArgument` before reading anything. A category type has a time and a
    /// count, nothing else.
    public func validate(for style: AggregationStyle?, type: String) throws {
        guard let style else {
            let allowed: StatisticsOptions = [.duration, .count, .separateBySource]
            if !subtracting(allowed).isEmpty {
                throw QueryError(.errorInvalidArgument, "\(type) is a category type: its statistics are duration and count", argument: .statisticsOptions)
            }
            return
        }
        if contains(.count) {
            throw QueryError(.errorInvalidArgument, "count is for category types; \(type) is a quantity type", argument: .statisticsOptions)
        }
        let discrete: StatisticsOptions = [.discreteAverage, .discreteMin, .discreteMax]
        if style == .cumulative && !intersection(discrete).isEmpty {
            throw QueryError(
                .errorInvalidArgument, "\(type) is cumulative: discreteAverage, discreteMin and discreteMax do not apply (use cumulativeSum)",
                argument: .statisticsOptions)
        }
        if style != .cumulative && contains(.cumulativeSum) {
            throw QueryError(
                .errorInvalidArgument, "\(type) is not cumulative: cumulativeSum does not apply (use discreteAverage, discreteMin or discreteMax)",
                argument: .statisticsOptions)
        }
    }
}
