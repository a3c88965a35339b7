import Foundation
import HealthModel

/// Resolves the time zone a person or an assistant named, for every face: one lookup and one
/// error, whose part at fault (`.timeZone`) each face names in its own words (the CLI's
/// `--tz`, the assistant's `'timeZone'`).
public enum TimeZoneNameResolver {
    /// `Europe/Paris`, `UTC`, … → the zone.
    ///
    /// - Throws: `QueryError.errorInvalidArgument` with `argument` `.timeZone` for a name the
    ///   system's time zone database does not know.
    public static func resolve(_ name: String) throws -> TimeZone {
        guard let zone = TimeZone(identifier: name) else {
            throw QueryError(.errorInvalidArgument, "unknown time zone '\(name)'", argument: .timeZone)
        }
        return zone
    }
}
