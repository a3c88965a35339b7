import HealthModel
import Testing

/// Where an app stands on a Health Connect export's priority list, type by type.
@Suite struct HealthConnectPriorityTests {
    let priority = HealthConnectPriority(apps: [
        .activity: ["com.sec.android.app.shealth", "com.google.android.apps.fitness"], .sleep: [],
    ])

    /// Activity types rank by the activity list; an app off it is left out (`.some(nil)`).
    @Test func activityRanksByItsList() {
        #expect(priority.rank(ofApp: "com.sec.android.app.shealth", forType: "HKQuantityTypeIdentifierStepCount") == .some(0))
        #expect(priority.rank(ofApp: "com.google.android.apps.fitness", forType: "HKQuantityTypeIdentifierDistanceWalkingRunning") == .some(1))
        #expect(priority.rank(ofApp: "org.example.pedometer", forType: "HKQuantityTypeIdentifierStepCount") == .some(nil))
        #expect(priority.rank(ofApp: "com.sec.android.app.shealth", forType: "HKWorkoutTypeIdentifier") == .some(0))
    }

    /// A type Health Connect does not total by priority, and a category whose list is empty,
    /// are not ranked (`nil`): the usual merge applies.
    @Test func otherTypesAndEmptyListsAreNotRanked() {
        #expect(priority.rank(ofApp: "com.sec.android.app.shealth", forType: "HKQuantityTypeIdentifierHeartRate") == nil)
        #expect(priority.rank(ofApp: "com.google.android.apps.fitness", forType: "HKCategoryTypeIdentifierSleepAnalysis") == nil)
    }
}
