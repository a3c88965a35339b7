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
    /// Bone mass, in kg (stored in grams): HealthKit keeps no body composition beyond mass, fat
    /// and lean mass.
    public static let boneMass = "HealthConnectBoneMass"
    /// Body water mass, in kg (stored in grams).
    public static let bodyWaterMass = "HealthConnectBodyWaterMass"
    /// Basal metabolic rate, a power: the energy a body at rest uses per day, in kcal/d (stored
    /// in watts). Not HealthKit's basal energy burned, which is energy over a sample's
    /// interval (a sum over a day): a rate is a level, averaged, never added up.
    public static let basalMetabolicRate = "HealthConnectBasalMetabolicRate"
    /// Speed, in m/s, and power, in W, through any activity. HealthKit's are an activity's
    /// (`RunningSpeed`, `CyclingPower`, …) and Health Connect's record says none: the session
    /// it lies in may, but reading one from the other would be a guess.
    public static let speed = "HealthConnectSpeed"
    public static let power = "HealthConnectPower"
    /// Steps per minute: HealthKit has no step cadence (its `CyclingCadence` is a pedal's).
    public static let stepsCadence = "HealthConnectStepsCadence"
    /// A span of moderate (0) or vigorous (1) activity (`ActivityIntensity`), as a category
    /// sample whose value is the intensity: HealthKit has no record of how hard a span was.
    public static let activityIntensity = "HealthConnectActivityIntensity"
    /// A skin temperature record's baseline, a temperature in degC (`SkinTemperature`).
    public static let skinTemperatureBaseline = "HealthConnectSkinTemperatureBaseline"
    /// A skin temperature's difference from its baseline at one instant, in `delta_degC`: a
    /// temperature difference, which converts to `delta_degF` by 9/5 and never to a temperature.
    public static let skinTemperatureDelta = "HealthConnectSkinTemperatureDelta"
    /// A planned exercise session, a plan rather than a measurement (`PlannedExerciseSession`),
    /// as a category sample over the planned interval whose value is not applicable.
    public static let plannedExerciseSession = "HealthConnectPlannedExerciseSession"
}
