/// The report's sections, in the order they appear; a section with nothing to show is left
/// out entirely (under a policy, nothing says it could have been there).
public enum ReportSection: String, Sendable, CaseIterable {
    case overview, averages, activity, heart, body, sleep, workouts, other, quality

    public var title: String {
        switch self {
        case .overview: return "Period, sources and devices"
        case .averages: return "A typical day, by week or month"
        case .activity: return "Activity"
        case .heart: return "Heart"
        case .body: return "Body"
        case .sleep: return "Sleep"
        case .workouts: return "Workouts"
        case .other: return "Other measurements"
        case .quality: return "Data quality"
        }
    }

    /// The section a type's daily series belongs to, and its place there.
    public static func of(_ identifier: String) -> (section: ReportSection, order: Int) {
        if let index = activityTypes.firstIndex(of: identifier) { return (.activity, index) }
        if let index = heartTypes.firstIndex(of: identifier) { return (.heart, index) }
        if let index = bodyTypes.firstIndex(of: identifier) { return (.body, index) }
        return (.other, Int.max)
    }

    static let activityTypes = [
        "HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierActiveEnergyBurned",
        "HKQuantityTypeIdentifierAppleExerciseTime", "HKCategoryTypeIdentifierAppleStandHour",
        "HKQuantityTypeIdentifierAppleStandTime", "HKQuantityTypeIdentifierDistanceWalkingRunning",
        "HKQuantityTypeIdentifierFlightsClimbed", "HKQuantityTypeIdentifierBasalEnergyBurned",
    ]
    static let heartTypes = [
        "HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierRestingHeartRate",
        "HKQuantityTypeIdentifierWalkingHeartRateAverage", "HKQuantityTypeIdentifierHeartRateVariabilitySDNN",
        "HKQuantityTypeIdentifierVO2Max", "HKQuantityTypeIdentifierHeartRateRecoveryOneMinute",
    ]
    static let bodyTypes = [
        "HKQuantityTypeIdentifierBodyMass", "HKQuantityTypeIdentifierBodyMassIndex", "HKQuantityTypeIdentifierHeight",
        "HKQuantityTypeIdentifierBodyFatPercentage", "HKQuantityTypeIdentifierLeanBodyMass",
        "HKQuantityTypeIdentifierWaistCircumference", "HKQuantityTypeIdentifierBloodPressureSystolic",
        "HKQuantityTypeIdentifierBloodPressureDiastolic",
    ]
}
