/// A failure that says where it happened, told in one line the way a compiler tells its own:
/// the place, then the message (`export.zip(apple_health_export/export.xml):1834:27: invalid
/// startDate …`, `steps_record_table row 12, column uuid: …`), or the message alone when the
/// failure has no place.
///
/// Each module's error keeps its own fields for the place (a `SourceLocation`, a path, a table
/// and a row) and its own codes, since what locates a fault differs by input; what they share is
/// how a log shows them, written here once so that a line reads alike whichever module failed.
/// Faces render the fields in their own words (`RunError`, the command line's diagnostics);
/// `description` is the rendering in no face's words, for logs and for tests.
public protocol LocatedError: Error, Sendable, CustomStringConvertible {
    /// Where the failure happened, as a log line names it; `nil` when it has no place.
    var place: String? { get }
    /// What happened: lower case, no trailing period, no personal data beyond what locates it.
    var message: String { get }
}

extension LocatedError {
    /// `place: message`, or the message alone.
    public var description: String { place.map { "\($0): \(message)" } ?? message }
}
