/// A workout as the Health app lists it (`healthport workouts`): its activity in words, its
/// duration, distance and active energy, and its heart rate from the samples recorded during it.
///
/// The duration is the workout's own (HealthKit's `duration`: the time not paused), in seconds,
/// else its span; distance and energy are HealthKit's totals (the attributes, else the
/// workout's statistics, as `Workout.effectiveTotalDistance` reads them). The heart rate is
/// computed from every heart-rate sample inside the workout's span, as a day's heart rate is
/// (all sources, the average weighted by time as HealthKit weighs heart rate), not taken from
/// what the export may say about it, so a workout of 2016 and one of 2025 are measured alike.
public struct WorkoutSummary: Sendable, Equatable {
    public var uuid: ObjectUUID
    /// The local date it began on (the day tables count it on).
    public var date: CalendarDate
    /// When it began and ended, in the zone days are cut in.
    public var start: ExportTimestamp
    public var end: ExportTimestamp
    /// `HKWorkoutActivityTypeRunning`, as exported.
    public var activityType: String
    /// The activity in words, as the Health app lists it (`Running`, `Functional Strength
    /// Training`).
    public var activity: String
    /// Seconds.
    public var duration: Double
    /// Kilometres, when the workout has a distance.
    public var distance: Double?
    /// Kilocalories of active energy, when recorded.
    public var activeEnergy: Double?
    /// Beats per minute over the samples during the workout; `nil` without any.
    public var averageHeartRate: Double?
    public var maximumHeartRate: Double?
    public var source: String

    public init(
        uuid: ObjectUUID, date: CalendarDate, start: ExportTimestamp, end: ExportTimestamp, activityType: String, activity: String,
        duration: Double, distance: Double?, activeEnergy: Double?, averageHeartRate: Double?, maximumHeartRate: Double?, source: String
    ) {
        self.uuid = uuid
        self.date = date
        self.start = start
        self.end = end
        self.activityType = activityType
        self.activity = activity
        self.duration = duration
        self.distance = distance
        self.activeEnergy = activeEnergy
        self.averageHeartRate = averageHeartRate
        self.maximumHeartRate = maximumHeartRate
        self.source = source
    }
}
