import HealthModel

/// How a measurement was taken, as Health Connect's record keeps it beside the value (where on
/// the body a temperature was taken; a blood glucose's specimen and its relation to a meal; a
/// blood pressure's arm and the body's position), in metadata: HealthKit's own key where one
/// means the same, and always the record's own code under a `HealthConnect…` key, since the two
/// code lists are not the same.
///
/// The codes are the platform's (`BodyTemperatureMeasurementLocation`,
/// `BloodGlucoseRecord.SpecimenSource` and `RelationToMealType`, `MealType`,
/// `BloodPressureRecord.BloodPressureMeasurementLocation` and `BodyPosition` in AOSP);
/// HealthKit's are its header's (`HKBodyTemperatureSensorLocation`, `HKBloodGlucoseMealTime`).
/// AOSP declares the glucose's and the blood pressure's code columns `TEXT` and writes integers
/// into them, so SQLite keeps their digits as text; the reader reads either
/// (`ReadOnlyDatabase.Statement.code`).
enum MeasurementContext: Sendable, Hashable {
    /// A body or basal body temperature's `measurement_location`.
    case temperature
    /// A blood glucose's `specimen_source`, `relation_to_meal` and `meal_type`.
    case bloodGlucose
    /// A blood pressure's `measurement_location` (which arm or wrist) and `body_position`.
    case bloodPressure

    /// The columns read, after the record's value, in order: each holds a code.
    var columns: [String] {
        switch self {
        case .temperature: return ["measurement_location"]
        case .bloodGlucose: return ["specimen_source", "relation_to_meal", "meal_type"]
        case .bloodPressure: return ["measurement_location", "body_position"]
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
        case .bloodGlucose:
            let relation = codes.count > 1 ? codes[1] : nil
            var entries: [MetadataEntry] = []
            if let mealTime = relation.flatMap(Self.mealTime(ofRelationToMeal:)) {
                entries.append(MetadataEntry(key: "HKBloodGlucoseMealTime", value: .number(ExportNumber(mealTime))))
            }
            let keys = [
                HealthConnectMetadataKeys.specimenSource, HealthConnectMetadataKeys.relationToMeal, HealthConnectMetadataKeys.mealType,
            ]
            for (key, code) in zip(keys, codes) { entries += Self.code(code, key) }
            return entries
        case .bloodPressure:
            let keys = [HealthConnectMetadataKeys.measurementLocation, HealthConnectMetadataKeys.bodyPosition]
            return zip(keys, codes).flatMap { key, code in Self.code(code, key) }
        }
    }

    /// A glucose's relation to a meal (0 unknown, 1 general, 2 fasting, 3 before a meal, 4 after
    /// a meal) as HealthKit's meal time (preprandial 1, postprandial 2), which says only before
    /// or after a meal. Fasting is not "just before a meal" (HealthKit's preprandial), general
    /// and unknown say nothing of a meal: none of them has a HealthKit meal time.
    static func mealTime(ofRelationToMeal code: Int64) -> Int? {
        switch code {
        case 3: return 1
        case 4: return 2
        default: return nil
        }
    }

    /// A record's own code under `key`, as text; none for NULL.
    static func code(_ code: Int64?, _ key: String) -> [MetadataEntry] {
        code.map { [MetadataEntry(key: key, value: .string(String($0)))] } ?? []
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
