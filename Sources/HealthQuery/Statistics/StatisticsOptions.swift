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

    static let names: [(String, StatisticsOptions)] = [
        ("separateBySource", .separateBySource), ("discreteAverage", .discreteAverage), ("discreteMin", .discreteMin),
        ("discreteMax", .discreteMax), ("cumulativeSum", .cumulativeSum), ("mostRecent", .mostRecent),
        ("discreteMostRecent", .mostRecent), ("duration", .duration),
    ]

    /// Parses `cumulativeSum,discreteAverage,…` (HealthKit's names).
    public init(parsing text: String) throws {
        var options: StatisticsOptions = []
        for part in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
            guard let option = Self.names.first(where: { $0.0.lowercased() == part.lowercased() })?.1 else {
                throw QueryError(
                    .errorInvalidArgument,
                    "unknown statistics option '\(part)' (cumulativeSum, discreteAverage, discreteMin, discreteMax, mostRecent, duration, separateBySource)",
                    argument: .statisticsOptions)
            }
            options.insert(option)
        }
        self = options
    }

    /// The default for a type: the sum for cumulative types, the average otherwise.
    public static func defaults(for style: AggregationStyle) -> StatisticsOptions {
        style == .cumulative ? .cumulativeSum : .discreteAverage
    }

    /// HealthKit raises for a discrete option on a cumulative type and the reverse; healthport
    /// reports `errorInvalidArgument` before reading anything.
    public func validate(for style: AggregationStyle, type: String) throws {
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
