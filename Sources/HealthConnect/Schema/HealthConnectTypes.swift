/// The types of the model that have no HealthKit equivalent, named for Health Connect. Each is
/// declared in `TypeCatalogue` too (its kind, aggregation and unit), so the commands total and
/// list it as they do HealthKit's own.
public enum HealthConnectTypes {
    /// Total energy burned (active and basal together), in kcal.
    public static let totalCaloriesBurned = "HealthConnectTotalCaloriesBurned"
    /// Heart rate variability as RMSSD, in ms (HealthKit's is SDNN, another measure).
    public static let heartRateVariabilityRMSSD = "HealthConnectHeartRateVariabilityRMSSD"
    /// Elevation gained, in m.
    public static let elevationGained = "HealthConnectElevationGained"
    /// A cervical mucus record whose appearance HealthKit's `CervicalMucusQuality` has no value
    /// for (unknown, unusual, or a code newer than the reader), as a category sample whose
    /// value is not applicable; its appearance and sensation are in its metadata.
    public static let cervicalMucus = "HealthConnectCervicalMucus"
    /// Nutrients of a food (`Nutrition`) that HealthKit has no dietary type for: energy from
    /// fat (kcal), unsaturated fat and trans fat (g), and folic acid (written in mcg, as
    /// HealthKit's folate is), each summed over a day as HealthKit's dietary types are.
    public static let dietaryEnergyFromFat = "HealthConnectDietaryEnergyFromFat"
    public static let dietaryFatUnsaturated = "HealthConnectDietaryFatUnsaturated"
    public static let dietaryFatTrans = "HealthConnectDietaryFatTrans"
    public static let dietaryFolicAcid = "HealthConnectDietaryFolicAcid"
}
