#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
/// The attributes of `Record`, the element an export holds tens of millions of, classified by
/// comparing bytes (length first, then `memcmp`), never by building a `String`.
enum RecordAttribute {
    case type, unit, value, sourceName, sourceVersion, device, creationDate, startDate, endDate
    /// iOS 8: `source` instead of `sourceName`, and pre-aggregated `recordCount`.
    case legacySource, recordCount
    case other

    @inline(__always)
    static func classify(_ name: UnsafeRawBufferPointer) -> RecordAttribute {
        switch name.count {
        case 4:
            if matches(name, "type") { return .type }
            if matches(name, "unit") { return .unit }
        case 5:
            if matches(name, "value") { return .value }
        case 6:
            if matches(name, "device") { return .device }
            if matches(name, "source") { return .legacySource }
        case 7:
            if matches(name, "endDate") { return .endDate }
        case 9:
            if matches(name, "startDate") { return .startDate }
        case 10:
            if matches(name, "sourceName") { return .sourceName }
        case 11:
            if matches(name, "recordCount") { return .recordCount }
        case 12:
            if matches(name, "creationDate") { return .creationDate }
        case 13:
            if matches(name, "sourceVersion") { return .sourceVersion }
        default:
            break
        }
        return .other
    }
}

/// Whether bytes equal a literal.
@inline(__always)
func matches(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
    bytes.count == literal.utf8CodeUnitCount
        && (bytes.count == 0 || memcmp(bytes.baseAddress!, literal.utf8Start, bytes.count) == 0)
}

/// The element kinds of the export's vocabulary (docs/reference/export-format.md §3).
enum ElementKind {
    case healthData, exportDate, me, record, metadataEntry, hrvList, instantaneousBeat
    case correlation, workout, workoutEvent, workoutActivity, workoutStatistics, workoutRoute
    case fileReference, location, activitySummary, clinicalRecord, audiogram, sensitivityPoint
    case visionPrescription, rightEye, leftEye, attachment
    case unknown

    @inline(__always)
    static func classify(_ name: ElementName) -> ElementKind {
        let b = name.bytes
        switch b.count {
        case 2: if matches(b, "Me") { return .me }
        case 6: if matches(b, "Record") { return .record }
        case 7: if matches(b, "Workout") { return .workout }
            if matches(b, "LeftEye") { return .leftEye }
        case 8: if matches(b, "Location") { return .location }
            if matches(b, "RightEye") { return .rightEye }
        case 9: if matches(b, "Audiogram") { return .audiogram }
        case 10:
            if matches(b, "HealthData") { return .healthData }
            if matches(b, "ExportDate") { return .exportDate }
            if matches(b, "Attachment") { return .attachment }
        case 11: if matches(b, "Correlation") { return .correlation }
        case 12: if matches(b, "WorkoutEvent") { return .workoutEvent }
            if matches(b, "WorkoutRoute") { return .workoutRoute }
        case 13: if matches(b, "MetadataEntry") { return .metadataEntry }
            if matches(b, "FileReference") { return .fileReference }
        case 14: if matches(b, "ClinicalRecord") { return .clinicalRecord }
        case 15: if matches(b, "WorkoutActivity") { return .workoutActivity }
            if matches(b, "ActivitySummary") { return .activitySummary }
        case 16: if matches(b, "SensitivityPoint") { return .sensitivityPoint }
        case 17: if matches(b, "WorkoutStatistics") { return .workoutStatistics }
        case 18: if matches(b, "VisionPrescription") { return .visionPrescription }
        case 27: if matches(b, "InstantaneousBeatsPerMinute") { return .instantaneousBeat }
        case 32: if matches(b, "HeartRateVariabilityMetadataList") { return .hrvList }
        default: break
        }
        return .unknown
    }
}
