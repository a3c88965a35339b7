/// The metadata keys whose value HealthKit stores as an `HKQuantity`.
///
/// The export prints every metadata value as text (docs/reference/export-format.md §4.7), so `418 cm` and a
/// food's brand `13 Chips` look alike. HealthKit documents the value type of each of its keys
/// (`HKMetadata.h`: "The expected value type is an HKQuantity…"); only those keys hold
/// quantities, and every other value, a third-party app's key included, is the string it printed.
///
/// Apple's key strings are not always the constants' names: most drop the `HKMetadataKey` prefix
/// to `HK` (`HKLapLength`), some keep it (`HKMetadataKeyAudioExposureLevel`, seen in exports).
/// Both spellings are accepted for every key, so a key whose printed form no export has shown
/// yet is still recognised.
public enum QuantityMetadataKeys {
    /// The constants' names after `HKMetadataKey`, from `HKMetadata.h` (iOS 17 SDK).
    static let names: [String] = [
        "WeatherTemperature", "WeatherHumidity", "LapLength", "AverageSpeed", "MaximumSpeed",
        "AlpineSlopeGrade", "ElevationAscended", "ElevationDescended", "FitnessMachineDuration",
        "IndoorBikeDistance", "CrossTrainerDistance", "HeartRateEventThreshold", "AverageMETs",
        "AudioExposureLevel", "AudioExposureDuration", "BarometricPressure", "VO2MaxValue",
        "LowCardioFitnessEventThreshold", "HeadphoneGain", "MaximumLightIntensity", "SessionEstimate",
        "HeartRateRecoveryActivityDuration", "HeartRateRecoveryMaxObservedRecoveryHeartRate",
    ]

    static let keys: Set<String> = Set(names.flatMap { ["HK" + $0, "HKMetadataKey" + $0] })

    /// Whether HealthKit stores this key's value as a quantity.
    public static func holdsQuantity(_ key: String) -> Bool { keys.contains(key) }

    /// Weather humidity, whose printed value recent exports multiply by a hundred.
    public static func isHumidity(_ key: String) -> Bool {
        key == "HKWeatherHumidity" || key == "HKMetadataKeyWeatherHumidity"
    }
}
