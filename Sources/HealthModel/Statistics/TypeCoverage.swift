/// What one export holds of one type over time: the row a study's quality control reads before
/// it uses a person's data (the `coverage` table of a lake, `healthport info --coverage`).
///
/// Days are local dates as the export printed them: each object's start date at the UTC offset
/// it was written with (an activity summary's own day). So the figures are a count over the
/// written tables (`startDate`'s first ten characters), and a de-identified output's coverage
/// is the original's on shifted days.
public struct TypeCoverage: Sendable, Equatable {
    /// The type's identifier (`HKQuantityTypeIdentifierHeartRate`, `HKWorkoutTypeIdentifier`).
    public var type: String
    public var firstDay: CalendarDate
    public var lastDay: CalendarDate
    /// Distinct days with at least one object of the type.
    public var days: Int
    /// Objects of the type (samples, workouts, correlations, summaries), counted once each.
    public var samples: Int
    /// Heart rate only: hours (of the local day, as printed) with at least one heart rate
    /// sample starting in them, over all days. Apple Watch measures heart rate every few minutes
    /// while it is worn, and not at all when it is off the wrist, so an hour with a sample is an
    /// hour the watch was worn: the usual measure of wear time.
    public var coveredHours: Int?
    /// Heart rate only: `coveredHours` over the hours of the days with data (24 × `days`): the
    /// mean share of a day the watch was worn, on the days it was worn at all.
    public var coveredShare: Double?

    public init(
        type: String, firstDay: CalendarDate, lastDay: CalendarDate, days: Int, samples: Int, coveredHours: Int? = nil,
        coveredShare: Double? = nil
    ) {
        self.type = type
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.days = days
        self.samples = samples
        self.coveredHours = coveredHours
        self.coveredShare = coveredShare
    }

    /// The type whose hours measure wear time.
    public static let wearTimeType = "HKQuantityTypeIdentifierHeartRate"
}
