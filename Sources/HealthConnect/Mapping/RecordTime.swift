import HealthModel

/// Health Connect's times (epoch milliseconds, zone offsets in seconds) as the model's
/// timestamps (whole seconds, with the offset the record was written in), refused when out of
/// any range a real record has.
enum RecordTime {
    /// 1900-01-01 to 2200-01-01, in milliseconds.
    static let earliest: Int64 = -2_208_988_800_000
    static let latest: Int64 = 7_258_118_400_000
    /// Java's `ZoneOffset` allows ±18 hours.
    static let largestOffset: Int64 = 18 * 3600

    /// Why `millis` at `offset` is no time a record has; `nil` when it is one.
    static func problem(millis: Int64, offset: Int64) -> String? {
        guard millis >= earliest, millis < latest else { return "a time outside 1900–2200" }
        guard abs(offset) <= largestOffset else { return "a zone offset beyond ±18 hours" }
        return nil
    }

    /// The instant `millis`, shown at `offset` seconds east of UTC (checked first with
    /// `problem`). Milliseconds are cut to the second below: the model's timestamps are whole
    /// seconds.
    static func timestamp(millis: Int64, offset: Int64) -> ExportTimestamp {
        let seconds = millis >= 0 ? millis / 1000 : -((-millis + 999) / 1000)
        return ExportTimestamp(secondsSince1970: seconds, utcOffsetSeconds: Int32(offset))
    }

    /// The checked timestamp, or the located error saying why there is none.
    static func checked(
        millis: Int64, offset: Int64, table: String, row: Int64, column: String
    ) throws(HealthConnectError) -> ExportTimestamp {
        if let problem = problem(millis: millis, offset: offset) {
            throw HealthConnectError(.invalidValue, problem, table: table, row: row, column: column)
        }
        return timestamp(millis: millis, offset: offset)
    }
}
