/// One point of a workout route (HealthKit: a `CLLocation` of an `HKWorkoutRoute`), read from the
/// GPX file the export writes per route.
public struct RoutePoint: Hashable, Sendable {
    /// UTC, whole seconds (several points can share a second).
    public var time: ExportTimestamp?
    public var latitude: ExportNumber
    public var longitude: ExportNumber
    /// Metres.
    public var elevation: ExportNumber?
    /// Metres per second.
    public var speed: ExportNumber?
    /// Degrees; -1 means invalid.
    public var course: ExportNumber?
    /// Metres.
    public var horizontalAccuracy: ExportNumber?
    public var verticalAccuracy: ExportNumber?

    public init(latitude: ExportNumber, longitude: ExportNumber) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
