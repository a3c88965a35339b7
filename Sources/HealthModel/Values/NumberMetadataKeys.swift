/// The metadata keys whose value HealthKit stores as an `NSNumber`.
///
/// The export prints every metadata value as text (docs/reference/export-format.md §4.7), so a number and a
/// string that looks like one (`1E10`, a 19-digit identifier, `0.0.1`) cannot be told apart by
/// their text. HealthKit documents the value type of each of its keys (`HKMetadata.h`: "The
/// expected value type is an NSNumber…"): those keys hold numbers (booleans among them, printed
/// `0` and `1`), and a key gets the same JSON type whatever its value. Every other key, HealthKit's
/// string keys and any key an app chose, holds the string printed: an app may have stored a
/// number there, but nothing in the export says so, and guessing from the text gave one key
/// numbers for some values and strings for others.
///
/// Both printed spellings are accepted, as for ``QuantityMetadataKeys``: `HK` + name
/// (`HKWasUserEntered`) and `HKMetadataKey` + name (`HKMetadataKeySyncVersion`).
public enum NumberMetadataKeys {
    /// The constants' names after `HKMetadataKey`, from `HKMetadata.h` (iOS 18.1 SDK).
    static let names: [String] = [
        "BodyTemperatureSensorLocation", "HeartRateSensorLocation", "HeartRateMotionContext", "UserMotionContext",
        "HeartRateRecoveryTestType", "HeartRateRecoveryActivityType", "SyncVersion", "WasTakenInLab",
        "ReferenceRangeLowerLimit", "ReferenceRangeUpperLimit", "WasUserEntered", "GroupFitness",
        "AppleFitnessPlusSession", "IndoorWorkout", "CoachedWorkout", "WeatherCondition",
        "SexualActivityProtectionUsed", "MenstrualCycleStart", "SwimmingLocationType", "SwimmingStrokeStyle",
        "InsulinDeliveryReason", "BloodGlucoseMealTime", "VO2MaxTestType", "AppleECGAlgorithmVersion",
        "DevicePlacementSide", "AppleDeviceCalibrated", "AlgorithmVersion", "SWOLFScore",
        "QuantityClampedToLowerBound", "QuantityClampedToUpperBound", "WaterSalinity",
        "CyclingFunctionalThresholdPowerTestType", "ActivityType", "PhysicalEffortEstimationType",
    ]

    static let keys: Set<String> = Set(names.flatMap { ["HK" + $0, "HKMetadataKey" + $0] })

    /// Whether HealthKit stores this key's value as a number.
    public static func holdsNumber(_ key: String) -> Bool { keys.contains(key) }
}
