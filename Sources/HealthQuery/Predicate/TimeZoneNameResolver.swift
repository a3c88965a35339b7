import Foundation

/// Resolves the zone a person names (`--tz`, the assistant's `time_zone`, Python's `tz`) to a
/// `TimeZone`: one parser for every face.
///
/// A zone name from the time zone database (`Europe/Paris`, `UTC`) keeps summer time; a fixed
/// offset, written as ISO 8601 writes one (`+01:00`, `-0530`, `+01`, `Z`) or as the database's
/// own spelling (`UTC+1`, `GMT-05:30`), never changes, and is what the export's own offset is.
///
/// For example:
/// ```swift
/// try TimeZoneNameResolver.resolve("Europe/Paris")   // summer time included
/// try TimeZoneNameResolver.resolve("+01:00")         // GMT+0100 all year
/// ```
public enum TimeZoneNameResolver {
    /// `Europe/Paris`, `UTC`, `+01:00`, … → the zone.
    ///
    /// - Throws: `QueryError.errorInvalidArgument` with `argument` `.timeZone` for a name the
    ///   system's time zone database does not know and that is not an offset.
    public static func resolve(_ name: String) throws -> TimeZone {
        if let offset = offsetSeconds(name), let zone = TimeZone(secondsFromGMT: offset) { return zone }
        guard let zone = TimeZone(identifier: name) else {
            throw QueryError(.errorInvalidArgument, "unknown time zone '\(name.prefix(60))' (a name such as Europe/Paris, or an offset such as +01:00)", argument: .timeZone)
        }
        return zone
    }

    /// The seconds east of UTC an ISO 8601 offset names (`Z`, `±hh`, `±hhmm`, `±hh:mm`), up to
    /// ±18 hours; `nil` for anything else.
    static func offsetSeconds(_ text: String) -> Int? {
        if text == "Z" { return 0 }
        let characters = Array(text)
        guard let sign = characters.first, sign == "+" || sign == "-" || sign == "\u{2212}" else { return nil }
        var digits = Array(characters.dropFirst())
        if digits.count == 5, digits[2] == ":" { digits.remove(at: 2) }
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let hours = Int(String(digits[0..<2]))!
        let minutes = digits.count == 4 ? Int(String(digits[2..<4]))! : 0
        guard hours <= 18, minutes < 60 else { return nil }
        let seconds = hours * 3600 + minutes * 60
        return sign == "+" ? seconds : -seconds
    }
}
