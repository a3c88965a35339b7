import HealthModel

/// Which metadata a de-identified object keeps: the keys HealthKit defines whose values are
/// numbers or quantities (`HKMetadata.h`: "The expected value type is an NSNumber" or "an
/// HKQuantity"), with such a value. Everything else is removed.
///
/// An allow-list, not a deny-list, because what is not known cannot be vetted: third-party apps
/// write keys of their own with anything in them (names, notes, account numbers). Among
/// HealthKit's own keys, those whose values are strings are the identifying or free-text ones:
/// `HKExternalUUID`, `HKMetadataKeySyncIdentifier`, `HKDeviceSerialNumber`, `HKDeviceName`,
/// `HKUDIDeviceIdentifier`, `HKUDIProductionIdentifier`, `HKDigitalSignature`, `HKFoodType`,
/// `HKWorkoutBrandName`, and `HKTimeZone` (a zone name can be finer than a state, such as
/// `America/Indiana/Knox`, and its daylight-saving rules would contradict the shifted dates).
/// The numeric and quantity keys (`HKWasUserEntered`, `HKHeartRateMotionContext`,
/// `HKIndoorWorkout`, `HKAverageMETs`, `HKElevationAscended`, `HKWeatherTemperature`,
/// `HKLapLength`, …) describe the measurement, not the person, and a study needs them.
/// `HKMetadataKeySyncVersion` is removed with its identifier: HealthKit defines the two as a
/// pair.
public enum MetadataAllowList {
    /// Whether an entry survives de-identification.
    @inline(__always)
    public static func keeps(_ entry: MetadataEntry) -> Bool {
        switch entry.value {
        case .number:
            return NumberMetadataKeys.holdsNumber(entry.key) && !isSyncVersion(entry.key)
        case .quantity:
            return QuantityMetadataKeys.holdsQuantity(entry.key)
        case .string, .date:
            return false
        }
    }

    /// A Health Connect record's last modification (HealthConnect's
    /// `HealthConnectMetadataKeys.lastModifiedDate`, which this module does not link): a date,
    /// so not kept here, but kept shifted by the de-identifier (`Deidentifier`).
    public static let healthConnectLastModifiedKey = "HealthConnectLastModifiedDate"

    static func isSyncVersion(_ key: String) -> Bool {
        key == "HKMetadataKeySyncVersion" || key == "HKSyncVersion"
    }

    /// `metadata` with only the entries kept; the same value, without a copy, when all are kept.
    @inline(__always)
    public static func filter(_ metadata: Metadata) -> Metadata {
        guard !metadata.entries.isEmpty, !metadata.entries.allSatisfy(keeps) else { return metadata }
        return Metadata(metadata.entries.filter(keeps))
    }
}
