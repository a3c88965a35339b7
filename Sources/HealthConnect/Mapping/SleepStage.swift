import HealthModel

/// Health Connect's sleep stages (`SleepSessionRecord.StageType` in AOSP, stored in
/// `sleep_stages_table.stage_type`) as HealthKit's sleep analysis values.
///
/// Where HealthKit has no value that means the same, the nearest one is taken and the stage's
/// own code is kept in the sample's metadata (`HealthConnectMetadataKeys.sleepStage`):
/// "out of bed" (3) and "awake in bed" (7) are HealthKit's awake; "unknown" (0) is asleep,
/// unspecified, as Health Connect counts it: its sleep time is the session's less its awake,
/// out-of-bed and awake-in-bed stages (`DURATION_EXCLUDE_TYPES` in AOSP).
enum SleepStage {
    static func value(ofStage code: Int64) -> CategoryValue {
        switch code {
        case 1, 3, 7: return CategoryValue(rawValue: 2, name: "HKCategoryValueSleepAnalysisAwake")
        case 0, 2: return asleep
        case 4: return CategoryValue(rawValue: 3, name: "HKCategoryValueSleepAnalysisAsleepCore")
        case 5: return CategoryValue(rawValue: 4, name: "HKCategoryValueSleepAnalysisAsleepDeep")
        case 6: return CategoryValue(rawValue: 5, name: "HKCategoryValueSleepAnalysisAsleepREM")
        // A code newer than this table: in bed, which counts no sleep it may not be.
        default: return inBed
        }
    }

    /// The session itself: with stages, the time in bed they lie in; without, sleep whose
    /// stages are not known (Health Connect counts all of a stageless session as sleep).
    static func session(hasStages: Bool) -> CategoryValue { hasStages ? inBed : asleep }

    static let inBed = CategoryValue(rawValue: 0, name: "HKCategoryValueSleepAnalysisInBed")
    static let asleep = CategoryValue(rawValue: 1, name: "HKCategoryValueSleepAnalysisAsleepUnspecified")
}
