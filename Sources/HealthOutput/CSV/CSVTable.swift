/// The tables CSV output can hold, with their fixed columns (`healthport-formats(5)`).
///
/// Columns follow HealthKit's property names; nested properties are joined with `_`
/// (`quantity_value`, `sourceRevision_source_name`). `metadata` and `extensions` hold JSON
/// objects as text, so the column set never depends on the data.
public enum CSVTable: Hashable, Sendable {
    case quantitySamples(typeIdentifier: String)
    case categorySamples(typeIdentifier: String)
    case correlations
    case workouts
    case workoutEvents
    case workoutActivities
    case workoutStatistics
    case workoutRoutes
    case workoutRouteLocations
    case instantaneousBeatsPerMinute
    case activitySummaries
    case clinicalRecords
    case audiograms
    case audiogramSensitivityPoints
    case visionPrescriptions
    case unknownElements
    case deletedObjects
    case export

    static let provenanceColumns = [
        "sourceRevision_source_name", "sourceRevision_version", "device_name", "device_manufacturer",
        "device_model", "device_hardwareVersion", "device_firmwareVersion", "device_softwareVersion",
        "device_localIdentifier", "device_udiDeviceIdentifier", "device_description", "creationDate",
    ]

    /// The header row.
    public var columns: [String] {
        switch self {
        case .quantitySamples:
            return ["uuid", "sampleType", "startDate", "endDate", "quantity_value", "quantity_unit", "count"]
                + Self.provenanceColumns + ["metadata", "extensions"]
        case .categorySamples:
            return ["uuid", "sampleType", "startDate", "endDate", "value", "valueName"]
                + Self.provenanceColumns + ["metadata", "extensions"]
        case .correlations:
            return ["uuid", "sampleType", "startDate", "endDate", "objects"] + Self.provenanceColumns
                + ["metadata", "extensions"]
        case .workouts:
            return [
                "uuid", "sampleType", "startDate", "endDate", "workoutActivityType", "duration_value", "duration_unit",
                "totalDistance_value", "totalDistance_unit", "totalEnergyBurned_value", "totalEnergyBurned_unit",
            ] + Self.provenanceColumns + ["metadata", "extensions"]
        case .workoutEvents:
            return ["workout_uuid", "workoutActivity_uuid", "type", "date", "duration_value", "duration_unit", "metadata"]
        case .workoutActivities:
            return ["workout_uuid", "uuid", "startDate", "endDate", "duration_value", "duration_unit", "metadata"]
        case .workoutStatistics:
            return [
                "workout_uuid", "workoutActivity_uuid", "quantityType", "startDate", "endDate", "sum", "average",
                "minimum", "maximum", "unit",
            ]
        case .workoutRoutes:
            return ["workout_uuid", "uuid", "startDate", "endDate", "fileReference"] + Self.provenanceColumns + ["metadata"]
        case .workoutRouteLocations:
            return [
                "route_uuid", "date", "latitude", "longitude", "altitude", "horizontalAccuracy", "verticalAccuracy",
                "course", "speed",
            ]
        case .instantaneousBeatsPerMinute:
            return ["sample_uuid", "bpm", "time", "date"]
        case .activitySummaries:
            return [
                "uuid", "dateComponents", "activeEnergyBurned_value", "activeEnergyBurnedGoal_value",
                "activeEnergyBurned_unit", "appleMoveTime_value", "appleMoveTimeGoal_value", "appleExerciseTime_value",
                "appleExerciseTimeGoal_value", "appleStandHours_value", "appleStandHoursGoal_value", "extensions",
            ]
        case .clinicalRecords:
            return [
                "uuid", "clinicalType", "receivedDate", "sourceRevision_source_name", "fhirResource_resourceType",
                "fhirResource_identifier", "fhirResource_sourceURL", "fhirResource_fhirVersion",
                "fhirResource_resourceFilePath", "extensions",
            ]
        case .audiograms:
            return ["uuid", "sampleType", "startDate", "endDate"] + Self.provenanceColumns + ["metadata", "extensions"]
        case .audiogramSensitivityPoints:
            return [
                "audiogram_uuid", "frequency_value", "frequency_unit", "leftEarSensitivity_value",
                "leftEarSensitivity_unit", "rightEarSensitivity_value", "rightEarSensitivity_unit", "leftEarMasked",
                "rightEarMasked", "leftEarClampingRangeLowerBound", "leftEarClampingRangeUpperBound",
                "rightEarClampingRangeLowerBound", "rightEarClampingRangeUpperBound",
            ]
        case .visionPrescriptions:
            var columns = ["uuid", "sampleType", "prescriptionType", "dateIssued", "expirationDate", "brand"]
            for eye in ["rightEye", "leftEye"] {
                for field in ["sphere", "cylinder", "axis", "addPower", "vertexDistance", "prismAmount", "prismAngle",
                    "farPupillaryDistance", "nearPupillaryDistance", "baseCurve", "diameter"]
                {
                    columns.append("\(eye)_\(field)_value")
                    columns.append("\(eye)_\(field)_unit")
                }
            }
            return columns + ["attachments", "metadata", "extensions"]
        case .unknownElements:
            return ["uuid", "element"]
        case .deletedObjects:
            return ["uuid", "sampleType"]
        case .export:
            return [
                "formatVersion", "locale", "exportDate", "exportVersion", "dateOfBirth", "biologicalSex", "bloodType",
                "fitzpatrickSkinType", "cardioFitnessMedicationsUse", "otherCharacteristics",
            ]
        }
    }

    /// The table's file name stem (without `.csv`) in an output folder.
    public var fileStem: String {
        switch self {
        case .quantitySamples(let type), .categorySamples(let type): return type
        case .correlations: return "correlations"
        case .workouts: return "workouts"
        case .workoutEvents: return "workout-events"
        case .workoutActivities: return "workout-activities"
        case .workoutStatistics: return "workout-statistics"
        case .workoutRoutes: return "workout-routes"
        case .workoutRouteLocations: return "workout-route-locations"
        case .instantaneousBeatsPerMinute: return "instantaneous-beats-per-minute"
        case .activitySummaries: return "activity-summaries"
        case .clinicalRecords: return "clinical-records"
        case .audiograms: return "audiograms"
        case .audiogramSensitivityPoints: return "audiogram-sensitivity-points"
        case .visionPrescriptions: return "vision-prescriptions"
        case .unknownElements: return "unknown-elements"
        case .deletedObjects: return "deleted"
        case .export: return "export"
        }
    }

    /// Whether the table is an object's main table (the one `--type` selects for standard output).
    public var isMainTable: Bool {
        switch self {
        case .workoutEvents, .workoutActivities, .workoutStatistics, .workoutRoutes, .workoutRouteLocations,
            .instantaneousBeatsPerMinute, .audiogramSensitivityPoints, .export, .deletedObjects:
            return false
        default:
            return true
        }
    }
}
