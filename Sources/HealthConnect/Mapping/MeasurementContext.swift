import HealthModel

/// How a measurement was taken, as Health Connect's record keeps it beside the value (where on
/// the body a temperature was taken), in metadata: HealthKit's own key where one means the
/// same, and always the record's own code under a `HealthConnect…` key, since the two code
/// lists are not the same.
///
/// The codes are the platform's (`BodyTemperatureMeasurementLocation` in AOSP); HealthKit's are
/// its header's (`HKBodyTemperatureSensorLocation`).
enum MeasurementContext: Sendable, Hashable {
    /// A body or basal body temperature's `measurement_location`.
    case temperature

    /// The columns read, after the record's value, in order: each holds a code.
    var columns: [String] {
        switch self {
        case .temperature: return ["measurement_location"]
        }
    }

    /// The metadata of a record whose context columns (`columns`, in order) hold `codes`
    /// (`nil` for NULL, which says nothing and is kept as nothing).
    func metadata(codes: [Int64?]) -> [MetadataEntry] {
        switch self {
        case .temperature:
            guard let code = codes.first ?? nil else { return [] }
            var entries: [MetadataEntry] = []
            if let location = Self.sensorLocation(ofTemperatureLocation: code) {
                entries.append(MetadataEntry(key: "HKBodyTemperatureSensorLocation", value: .number(ExportNumber(location))))
            }
            entries.append(MetadataEntry(key: HealthConnectMetadataKeys.measurementLocation, value: .string(String(code))))
            return entries
        }
    }

    /// A temperature's location (0 unknown, 1 armpit, 2 finger, 3 forehead, 4 mouth, 5 rectum,
    /// 6 temporal artery, 7 toe, 8 ear, 9 wrist, 10 vagina) as HealthKit's sensor location
    /// (other 0, armpit 1, body 2, ear 3, finger 4, gastrointestinal 5, mouth 6, rectum 7, toe 8,
    /// ear drum 9, temporal artery 10, forehead 11). The wrist and the vagina are HealthKit's
    /// "other", a place its list does not name; Health Connect's ear (tympanic) is HealthKit's
    /// ear, the broader of its two. Unknown, and a code newer than this table, are no location.
    static func sensorLocation(ofTemperatureLocation code: Int64) -> Int? {
        switch code {
        case 1: return 1
        case 2: return 4
        case 3: return 11
        case 4: return 6
        case 5: return 7
        case 6: return 10
        case 7: return 8
        case 8: return 3
        case 9, 10: return 0
        default: return nil
        }
    }
}
