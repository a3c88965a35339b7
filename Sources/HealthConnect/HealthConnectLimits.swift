/// What one table of a stranger's database can make the reader hold. Records stream one row at
/// a time and are never held; what is held is the small tables every record refers to (apps,
/// devices, the priority list) and the text of one row. A database that goes past these is
/// refused (`HealthConnectError.Code.limitExceeded`) rather than read into memory it chose.
public struct HealthConnectLimits: Sendable {
    /// Rows of `application_info_table` (a phone has tens of apps).
    public var applications = 10_000
    /// Rows of `device_info_table`.
    public var devices = 100_000
    /// Bytes of one text value (an app's name, a session's title or notes).
    public var textBytes = 64 * 1024
    /// Bytes of one category's priority list (`app_id_priority_order`).
    public var priorityListBytes = 64 * 1024
    /// Points of one exercise session's route, held with its workout (a day's run at one point
    /// a second is 86,400).
    public var routePoints = 500_000
    /// Laps of one exercise session.
    public var laps = 10_000
    /// Segments of one exercise session (a set of a strength workout is one).
    public var segments = 10_000

    public init() {}
}
