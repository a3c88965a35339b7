/// What AOSP stores for an optional number a record did not set: `Constants.DEFAULT_DOUBLE`,
/// Java's `Double.MIN_VALUE` (4.9 × 10⁻³²⁴, the smallest positive double: Swift's
/// `leastNonzeroMagnitude`). A record's internal form starts its optional fields at it and
/// writes them all, so a nutrient, a skin temperature's baseline, or a route point's altitude
/// and accuracies the app never gave are stored as this value, never as NULL; AOSP itself
/// compares with it before handing a value to an app (`ExerciseRouteInternal`,
/// `SkinTemperatureRecordInternal`). No measurement is ever this number.
enum NotSet {
    static let value = Double.leastNonzeroMagnitude

    /// `stored`, or `nil` when it is AOSP's "not set".
    static func filtered(_ stored: Double) -> Double? { stored == value ? nil : stored }
}
