/// One type's numbers for one of the person's days, as the Health app shows them: samples from
/// several sources merged (an iPhone's and a Watch's steps counted once), days cut at the
/// person's local midnight.
///
/// Which fields are set follows the type (HealthKit's aggregation style): a cumulative type has
/// a `sum` (steps, energy, distance); a discrete one an `average`, `minimum` and `maximum`
/// (heart rate, weight; the average weighted by time where HealthKit weighs it). A category
/// type follows its `CategoryDayMeasure`: stand hours are the `count` of hours stood; sleep is
/// the night that ends that morning (`duration` asleep, `inBed`); sessions (mindful minutes,
/// handwashing) a `duration` and a `count`; events and symptoms a `count` of the samples that
/// say they happened. Workouts have a `duration` and a `count`. Every row's `count` is the
/// samples counted once, so two apps logging the same session count one.
public struct DailySummary: Sendable, Equatable {
    /// The person's local date.
    public var date: CalendarDate
    /// The type's identifier (`HKQuantityTypeIdentifierStepCount`, `HKWorkoutTypeIdentifier`).
    public var type: String
    /// The unit of `sum`, `average`, `minimum` and `maximum` (the type's canonical unit);
    /// `nil` for category types and workouts.
    public var unit: String?
    public var sum: Double?
    public var average: Double?
    public var minimum: Double?
    public var maximum: Double?
    /// Seconds of the day covered (timed category types, workouts), overlaps counted once;
    /// for sleep, the seconds asleep in the night that ended that morning.
    public var duration: Double?
    /// Sleep only: the seconds in bed in the night that ended that morning (`nil` when no
    /// source recorded time in bed).
    public var inBed: Double?
    public var count: Int
    /// The sources whose samples counted, by name, sorted.
    public var sources: [String]

    public init(
        date: CalendarDate, type: String, unit: String?, sum: Double? = nil, average: Double? = nil, minimum: Double? = nil,
        maximum: Double? = nil, duration: Double? = nil, inBed: Double? = nil, count: Int, sources: [String]
    ) {
        self.date = date
        self.type = type
        self.unit = unit
        self.sum = sum
        self.average = average
        self.minimum = minimum
        self.maximum = maximum
        self.duration = duration
        self.inBed = inBed
        self.count = count
        self.sources = sources
    }
}
