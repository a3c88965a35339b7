/// How values of a quantity type combine over time (HealthKit: `HKQuantityAggregationStyle`).
public enum AggregationStyle: String, Hashable, Sendable {
    /// Amounts that add up: steps, distance, energy.
    case cumulative
    /// Point measurements averaged arithmetically: body mass, HRV.
    case discreteArithmetic
    /// Levels that persist in time, averaged by duration: heart rate.
    case discreteTemporallyWeighted
    /// Sound levels, averaged by energy (IEC 61672-1).
    case discreteEquivalentContinuousLevel
}
