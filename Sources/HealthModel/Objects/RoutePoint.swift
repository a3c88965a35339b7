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

extension RoutePoint {
    /// A point from a pre-iOS 13 inline `Location`; nil without a position.
    public init?(location: RouteLocation) {
        guard let latitude = location.latitude, let longitude = location.longitude else { return nil }
        self.init(latitude: latitude, longitude: longitude)
        time = location.date
        elevation = location.altitude
        speed = location.speed
        course = location.course
        horizontalAccuracy = location.horizontalAccuracy
        verticalAccuracy = location.verticalAccuracy
    }
}
