/// The tables CSV and Parquet output hold (`healthport-formats(5)`), a file each in a folder;
/// their columns are defined once, in `TableRows`, and objects are routed to them once, in
/// `TableRouting`.
public enum OutputTable: Hashable, Sendable {
    case quantitySamples(typeIdentifier: String)
    case categorySamples(typeIdentifier: String)
    case correlations
    case workouts
    case workoutEvents
    case workoutActivities
    case workoutStatistics
    case workoutRoutes
    case workoutRouteLocations
    case instantaneousBeatsPerMinute
    case activitySummaries
    case clinicalRecords
    case audiograms
    case audiogramSensitivityPoints
    case visionPrescriptions
    case unknownElements
    case deletedObjects
    case export
    /// One row per type and local day (`DailySummary`).
    case dailySummary
    /// One row per night (`SleepNight`).
    case sleepNights
    /// One row per type: what the export covers (`TypeCoverage`).
    case coverage
    /// One row per local day, its measures side by side (`DayRow`).
    case days
    /// One row per week or month of the day table (`DayPeriodRow`).
    case dayPeriods
    /// One row per workout, as the Health app lists it (`WorkoutSummary`).
    case workoutSummary

    /// The table's file name stem (without `.csv` or `.parquet`) in an output folder.
    public var fileStem: String {
        switch self {
        case .quantitySamples(let type), .categorySamples(let type): return type
        case .correlations: return "correlations"
        case .workouts: return "workouts"
        case .workoutEvents: return "workout-events"
        case .workoutActivities: return "workout-activities"
        case .workoutStatistics: return "workout-statistics"
        case .workoutRoutes: return "workout-routes"
        case .workoutRouteLocations: return "workout-route-locations"
        case .instantaneousBeatsPerMinute: return "instantaneous-beats-per-minute"
        case .activitySummaries: return "activity-summaries"
        case .clinicalRecords: return "clinical-records"
        case .audiograms: return "audiograms"
        case .audiogramSensitivityPoints: return "audiogram-sensitivity-points"
        case .visionPrescriptions: return "vision-prescriptions"
        case .unknownElements: return "unknown-elements"
        case .deletedObjects: return "deleted"
        case .export: return "export"
        case .dailySummary: return "daily-summary"
        case .sleepNights: return "sleep-nights"
        case .coverage: return "coverage"
        case .days: return "days"
        case .dayPeriods: return "day-periods"
        case .workoutSummary: return "workout-summary"
        }
    }

    /// Whether the table is an object's main table (the one `--type` selects for standard output).
    public var isMainTable: Bool {
        switch self {
        case .workoutEvents, .workoutActivities, .workoutStatistics, .workoutRoutes, .workoutRouteLocations,
            .instantaneousBeatsPerMinute, .audiogramSensitivityPoints, .export, .deletedObjects:
            return false
        default:
            return true
        }
    }
}
