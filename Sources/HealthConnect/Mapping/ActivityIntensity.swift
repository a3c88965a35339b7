import HealthModel

/// Health Connect's activity intensity (`activity_intensity_record_table`, database version 16):
/// a span of moderate or vigorous activity, as a category sample of Health Connect's own,
/// `HealthConnectActivityIntensity`, over the span. HealthKit has no such sample: its exercise
/// minutes are a quantity Apple's Watch derives, not a record of how hard each span was.
///
/// The value is the record's type code (the platform's `ActivityIntensityRecord`
/// `ACTIVITY_INTENSITY_TYPE_MODERATE` 0, `ACTIVITY_INTENSITY_TYPE_VIGOROUS` 1), named
/// `HealthConnectActivityIntensityModerate` and `…Vigorous`, so the value alone says which. A
/// code newer than these two is kept as its number, without a name: healthport does not guess
/// what a newer intensity means. AOSP writes the type of every record, so a NULL is a damaged
/// row, refused with its place, as a code that is no whole number is.
///
/// A day counts the time these spans cover, moderate and vigorous alike, each minute once
/// (`CategoryDayMeasure`); Health Connect's "intensity minutes" (`INTENSITY_MINUTES_TOTAL`)
/// count a vigorous minute twice, which the day's figure does not.
enum ActivityIntensity {
    /// The table's own column after every record's: the type code.
    static let columns = ["type"]

    /// The sample's value for the type `code`.
    static func value(ofType code: Int64) -> CategoryValue {
        switch code {
        case 0: return CategoryValue(rawValue: 0, name: "HealthConnectActivityIntensityModerate")
        case 1: return CategoryValue(rawValue: 1, name: "HealthConnectActivityIntensityVigorous")
        default: return CategoryValue(rawValue: Int(clamping: code), name: nil)
        }
    }
}
