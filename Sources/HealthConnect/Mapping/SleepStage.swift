import HealthModel

/// Health Connect's sleep stages (`SleepSessionRecord.StageType` in AOSP, stored in
/// `sleep_stages_table.stage_type`) as HealthKit's sleep analysis values.
///
/// Where HealthKit has no value that means the same, the nearest one is taken and the stage's
/// own code is kept in the sample's metadata (`HealthConnectMetadataKeys.sleepStage`):
/// "out of bed" (3) and "awake in bed" (7) are HealthKit's awake; "unknown" (0) is in bed.
enum SleepStage {
    static func value(ofStage code: Int64) -> CategoryValue {
        switch code {
        case 1, 3, 7: return CategoryValue(rawValue: 2, name: "HKCategoryValueSleepAnalysisAwake")
        case 2: return CategoryValue(rawValue: 1, name: "HKCategoryValueSleepAnalysisAsleepUnspecified")
        case 4: return CategoryValue(rawValue: 3, name: "HKCategoryValueSleepAnalysisAsleepCore")
        case 5: return CategoryValue(rawValue: 4, name: "HKCategoryValueSleepAnalysisAsleepDeep")
        case 6: return CategoryValue(rawValue: 5, name: "HKCategoryValueSleepAnalysisAsleepREM")
        default: return inBed
        }
    }

    /// The whole session: the time in bed.
    static let inBed = CategoryValue(rawValue: 0, name: "HKCategoryValueSleepAnalysisInBed")
}
