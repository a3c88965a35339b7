/// Health Connect's "data sources and priority": for each category of data, the apps whose
/// records count toward its totals, highest priority first. Android keeps it in the export's
/// `health_data_category_priority_table`; Apple's exports have nothing like it.
///
/// It travels in the export's header (`ExportHeader.healthConnectPriority`) because it decides
/// what the totals of the whole export are (`healthport summary`, `days`), not any one object.
/// Apps are named by their Android package name (`Source.bundleIdentifier`), which stays the
/// same when an app is renamed.
public struct HealthConnectPriority: Hashable, Sendable {
    /// Health Connect's data categories (`HealthDataCategory` in AOSP), by their stored code.
    public enum Category: Int, Hashable, Sendable, CaseIterable {
        case activity = 1
        case bodyMeasurements = 2
        case cycleTracking = 3
        case nutrition = 4
        case sleep = 5
        case vitals = 6

        /// The category's name in healthport's JSON (the export's header line).
        public var name: String {
            switch self {
            case .activity: "activity"
            case .bodyMeasurements: "bodyMeasurements"
            case .cycleTracking: "cycleTracking"
            case .nutrition: "nutrition"
            case .sleep: "sleep"
            case .vitals: "vitals"
            }
        }

        /// The category of a name `name` gives; `nil` for any other text.
        public init?(name: String) {
            guard let category = Self.allCases.first(where: { $0.name == name }) else { return nil }
            self = category
        }
    }

    /// Package names by category, highest priority first.
    public var apps: [Category: [String]]

    public init(apps: [Category: [String]] = [:]) {
        self.apps = apps
    }

    /// The category whose list decides a type's totals, for the types Health Connect totals by
    /// priority (`PriorityRecordsAggregator`: steps, active energy, distance, elevation, floors,
    /// wheelchair pushes, activity intensity (an activity type, `DataTypeDescriptors`), and sleep
    /// and exercise time); `nil` for every other type, which Health Connect does not total by
    /// priority, or by a category healthport does not read (mindfulness time, by wellness).
    public static func category(ofType identifier: String) -> Category? {
        switch identifier {
        case "HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierActiveEnergyBurned",
            "HKQuantityTypeIdentifierDistanceWalkingRunning", "HKQuantityTypeIdentifierFlightsClimbed",
            "HKQuantityTypeIdentifierPushCount", "HKWorkoutTypeIdentifier", "HealthConnectElevationGained",
            "HealthConnectActivityIntensity":
            return .activity
        case "HKCategoryTypeIdentifierSleepAnalysis":
            return .sleep
        default:
            return nil
        }
    }

    /// Where `app` stands for `type`'s totals: 0 is the highest priority. `nil` when the type is
    /// not totalled by priority, or its category has no list in the export (an empty list would
    /// leave every record out; healthport then merges as for Apple's exports); `.some(nil)`
    /// when the app is not on the category's list, so its records are left out of the totals,
    /// as Health Connect leaves them out.
    public func rank(ofApp app: String, forType type: String) -> Int?? {
        guard let category = Self.category(ofType: type), let list = apps[category], !list.isEmpty else { return nil }
        return .some(list.firstIndex(of: app))
    }
}
