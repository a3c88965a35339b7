import HealthModel

/// A workout as the summary keeps it until its heart rate is known (`WorkoutSummary`): what
/// the listing shows, in seconds, kilometres and kilocalories. A person has a few a day, so the
/// collector holds them all (about 150 bytes each) while the samples stream past.
struct WorkoutRecord: Sendable {
    var uuid: ObjectUUID
    var start: Double
    var end: Double
    var activityType: WorkoutActivityType
    var duration: Double
    var distance: Double?
    var activeEnergy: Double?
    var source: String

    private static let seconds = try? HealthUnit.cached("s")
    private static let kilometres = try? HealthUnit.cached("km")
    private static let kilocalories = try? HealthUnit.cached("kcal")

    init(_ workout: Workout) {
        uuid = workout.sample.uuid
        start = Double(workout.sample.startDate.secondsSince1970)
        end = max(start, Double(workout.sample.endDate.secondsSince1970))
        activityType = workout.workoutActivityType
        duration = Self.convert(workout.duration, to: Self.seconds) ?? (end - start)
        distance = Self.convert(workout.effectiveTotalDistance, to: Self.kilometres)
        activeEnergy = Self.convert(workout.effectiveTotalEnergyBurned, to: Self.kilocalories)
        source = workout.sample.sourceRevision.source.name
    }

    /// The quantity in `unit`; `nil` when there is none or it does not convert.
    static func convert(_ quantity: Quantity?, to unit: HealthUnit?) -> Double? {
        guard let quantity, let unit, let from = try? HealthUnit.cached(quantity.unit), from.isCompatible(with: unit) else { return nil }
        return try? from.convert(quantity.value.value, to: unit)
    }
}

/// The heart rate during each workout, from the heart-rate records as the sorted summary
/// hands them out (by time): each sample inside a workout's span counts in that workout, all
/// sources together, weighted by its time there (an instant by one second), as a day's
/// heart-rate average is (`IntervalAggregation.average`, heart rate being time-weighted).
struct WorkoutHeartRates {
    private let workouts: [WorkoutRecord]
    private var totals: [(weighted: Double, weights: Double, maximum: Double)?]
    /// The first workout that can still receive a sample (records come by start).
    private var next = 0

    /// - Parameter workouts: sorted by start.
    init(_ workouts: [WorkoutRecord]) {
        self.workouts = workouts
        totals = Array(repeating: nil, count: workouts.count)
    }

    /// Adds a heart-rate sample `[start, end]` of `value` beats per minute.
    mutating func add(start: Double, end: Double, value: Double) {
        // Samples come by start: a workout that ended before this one began receives no more.
        while next < workouts.count && workouts[next].end < start { next += 1 }
        var index = next
        while index < workouts.count && workouts[index].start <= end {
            let workout = workouts[index]
            let from = max(start, workout.start), to = min(end, workout.end)
            if to >= from && (end > start ? to > from : true) {
                let weight = to > from ? to - from : 1
                var total = totals[index] ?? (0, 0, -Double.infinity)
                total.weighted += value * weight
                total.weights += weight
                total.maximum = max(total.maximum, value)
                totals[index] = total
            }
            index += 1
        }
    }

    /// The average and maximum of workout `index`; `nil` without samples.
    func heartRate(of index: Int) -> (average: Double, maximum: Double)? {
        guard let total = totals[index], total.weights > 0 else { return nil }
        return (total.weighted / total.weights, total.maximum)
    }
}
