/// Every type identifier healthport knows, with what HealthKit says about it.
///
/// Sources: the iOS 18 SDK header `HKTypeIdentifiers.h` as summarized in
/// `docs/reference/healthkit.md` §2, and `HKCategoryTypeIdentifierHypertensionEvent` (iOS 26.2,
/// HealthKit's release notes). HealthKit adds identifiers every year; an identifier missing
/// here is not an error anywhere in healthport (`--type` selects it by its full identifier).
///
/// Types healthport keeps but does not model (heartbeat series, State of Mind, the GAD-7 and
/// PHQ-9 scored assessments) are listed with kind `other`: their objects are passed through as
/// Apple wrote them (`UnknownObject`), so that they can be named and counted.
public enum TypeCatalogue {
    public struct Entry: Sendable {
        public let identifier: String
        public let kind: ObjectType.Kind
        /// For quantity types.
        public let aggregationStyle: AggregationStyle?
        /// For quantity types: the canonical unit fixing the dimension.
        public let canonicalUnit: String?
    }

    /// The identifier HealthKit stores for one the export may print under an older name.
    ///
    /// The runtime value of `HKCategoryTypeIdentifierEnvironmentalAudioExposureEvent` is
    /// `HKCategoryTypeIdentifierAudioExposureEvent`; both strings name one type.
    public static func canonicalIdentifier(_ identifier: String) -> String {
        identifier == "HKCategoryTypeIdentifierEnvironmentalAudioExposureEvent"
            ? "HKCategoryTypeIdentifierAudioExposureEvent" : identifier
    }

    public static let prefixes = [
        "HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCorrelationTypeIdentifier",
        "HKClinicalTypeIdentifier", "HKDataTypeIdentifier", "HKCharacteristicTypeIdentifier",
        "HKScoredAssessmentTypeIdentifier", "HKDocumentTypeIdentifier", "HKDataType",
    ]

    /// `HKQuantityTypeIdentifierStepCount` → `StepCount`. Identifiers with no known prefix are
    /// returned whole.
    public static func shortName(of identifier: String) -> String {
        for prefix in prefixes where identifier.hasPrefix(prefix) && identifier.count > prefix.count {
            return String(identifier.dropFirst(prefix.count))
        }
        switch identifier {
        case "HKWorkoutTypeIdentifier": return "Workout"
        case "HKWorkoutRouteTypeIdentifier": return "WorkoutRoute"
        case "HKActivitySummaryTypeIdentifier": return "ActivitySummary"
        case "HKVisionPrescriptionTypeIdentifier": return "VisionPrescription"
        default: return identifier
        }
    }

    /// Resolves a name a person typed (`StepCount`, `stepcount`, `Steps`, `resting heart rate`,
    /// `HKQuantityTypeIdentifierStepCount`, any full identifier of HealthKit's form) to a full
    /// identifier, or `nil` when it finds no type or several (``match(typeName:)`` tells which).
    public static func resolve(userTypeName name: String) -> String? {
        if case .type(let identifier) = match(typeName: name) { return identifier }
        return nil
    }

    public static func entry(for identifier: String) -> Entry? { byIdentifier[identifier] }

    public static let all: [Entry] = {
        var entries: [Entry] = []
        let styles: [String: AggregationStyle] = [
            "C": .cumulative, "DA": .discreteArithmetic, "DTW": .discreteTemporallyWeighted,
            "DECL": .discreteEquivalentContinuousLevel,
        ]
        for line in quantityTable.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 3 else { continue }
            entries.append(
                Entry(
                    identifier: "HKQuantityTypeIdentifier" + parts[0], kind: .quantity,
                    aggregationStyle: styles[String(parts[1])], canonicalUnit: String(parts[2])))
        }
        // Health Connect's measures with no HealthKit type (`HealthConnectTypes`, named for it):
        // summed or averaged as Health Connect aggregates them, so a day's total calories is
        // a sum, as the Health Connect app shows it, not an average of records.
        for (identifier, style, unit) in [
            ("HealthConnectTotalCaloriesBurned", AggregationStyle.cumulative, "kcal"),
            ("HealthConnectElevationGained", .cumulative, "m"),
            ("HealthConnectHeartRateVariabilityRMSSD", .discreteArithmetic, "ms"),
            // A food's nutrients HealthKit has no dietary type for: summed as its dietary types are.
            ("HealthConnectDietaryEnergyFromFat", .cumulative, "kcal"),
            ("HealthConnectDietaryFatUnsaturated", .cumulative, "g"),
            ("HealthConnectDietaryFatTrans", .cumulative, "g"),
            ("HealthConnectDietaryFolicAcid", .cumulative, "g"),
            // Body composition and the basal metabolic rate (a power, kcal a day): levels, averaged.
            ("HealthConnectBoneMass", .discreteArithmetic, "kg"),
            ("HealthConnectBodyWaterMass", .discreteArithmetic, "kg"),
            ("HealthConnectBasalMetabolicRate", .discreteArithmetic, "kcal/d"),
            // Series readings through any activity, averaged as HealthKit's running and cycling ones are.
            ("HealthConnectSpeed", .discreteArithmetic, "m/s"),
            ("HealthConnectPower", .discreteArithmetic, "W"),
            ("HealthConnectStepsCadence", .discreteArithmetic, "count/min"),
            // Skin temperature: the record's baseline, a temperature, and its deltas, differences
            // from it in a unit of temperature difference (never converted with an offset).
            ("HealthConnectSkinTemperatureBaseline", .discreteArithmetic, "degC"),
            ("HealthConnectSkinTemperatureDelta", .discreteArithmetic, "delta_degC"),
        ] {
            entries.append(Entry(identifier: identifier, kind: .quantity, aggregationStyle: style, canonicalUnit: unit))
        }
        for name in categoryNames.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            entries.append(
                Entry(
                    identifier: "HKCategoryTypeIdentifier" + name, kind: .category,
                    aggregationStyle: nil, canonicalUnit: nil))
        }
        // Health Connect's records with no HealthKit category value: a cervical mucus record
        // whose appearance HealthKit's quality cannot say (unknown, unusual).
        entries.append(Entry(identifier: "HealthConnectCervicalMucus", kind: .category, aggregationStyle: nil, canonicalUnit: nil))
        // A span of moderate or vigorous activity: HealthKit records no intensity.
        entries.append(Entry(identifier: "HealthConnectActivityIntensity", kind: .category, aggregationStyle: nil, canonicalUnit: nil))
        // A planned exercise session: a plan, not a measurement, over the planned interval.
        entries.append(Entry(identifier: "HealthConnectPlannedExerciseSession", kind: .category, aggregationStyle: nil, canonicalUnit: nil))
        let others: [(String, ObjectType.Kind)] = [
            ("HKCorrelationTypeIdentifierBloodPressure", .correlation),
            ("HKCorrelationTypeIdentifierFood", .correlation),
            ("HKWorkoutTypeIdentifier", .workout),
            ("HKWorkoutRouteTypeIdentifier", .workoutRoute),
            ("HKActivitySummaryTypeIdentifier", .activitySummary),
            ("HKDataTypeIdentifierAudiogram", .audiogram),
            // Not in export.xml: read from the ECG CSV files by `healthport ecg`.
            ("HKDataTypeIdentifierElectrocardiogram", .other),
            ("HKVisionPrescriptionTypeIdentifier", .visionPrescription),
            ("HKDataTypeSleepDurationGoal", .other),
            // Kept but not modelled: passed through as written (`UnknownObject`).
            ("HKDataTypeIdentifierHeartbeatSeries", .other),
            ("HKDataTypeIdentifierStateOfMind", .other),
            ("HKScoredAssessmentTypeIdentifierGAD7", .other),
            ("HKScoredAssessmentTypeIdentifierPHQ9", .other),
            ("HKCharacteristicTypeIdentifierDateOfBirth", .characteristic),
            ("HKCharacteristicTypeIdentifierBiologicalSex", .characteristic),
            ("HKCharacteristicTypeIdentifierBloodType", .characteristic),
            ("HKCharacteristicTypeIdentifierFitzpatrickSkinType", .characteristic),
            ("HKCharacteristicTypeIdentifierWheelchairUse", .characteristic),
            ("HKCharacteristicTypeIdentifierActivityMoveMode", .characteristic),
            ("HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse", .characteristic),
        ]
        for clinical in [
            "AllergyRecord", "ClinicalNoteRecord", "ConditionRecord", "ImmunizationRecord",
            "LabResultRecord", "MedicationRecord", "ProcedureRecord", "VitalSignRecord", "CoverageRecord",
        ] {
            entries.append(
                Entry(
                    identifier: "HKClinicalTypeIdentifier" + clinical, kind: .clinicalRecord,
                    aggregationStyle: nil, canonicalUnit: nil))
        }
        for (identifier, kind) in others {
            entries.append(Entry(identifier: identifier, kind: kind, aggregationStyle: nil, canonicalUnit: nil))
        }
        return entries
    }()

    static let byIdentifier: [String: Entry] = {
        var map: [String: Entry] = [:]
        for entry in all { map[entry.identifier] = entry }
        return map
    }()

    static let byShortNameLowercased: [String: String] = {
        var map: [String: String] = [:]
        for entry in all {
            let short = shortName(of: entry.identifier).lowercased()
            if map[short] == nil { map[short] = entry.identifier }
            map[entry.identifier.lowercased()] = entry.identifier
        }
        return map
    }()

    // Suffix, aggregation style, canonical unit (docs/reference/healthkit.md §2.1).
    static let quantityTable = """
        StepCount C count
        DistanceWalkingRunning C m
        DistanceCycling C m
        DistanceWheelchair C m
        DistanceSwimming C m
        DistanceDownhillSnowSports C m
        DistanceCrossCountrySkiing C m
        DistancePaddleSports C m
        DistanceRowing C m
        DistanceSkatingSports C m
        ActiveEnergyBurned C kcal
        BasalEnergyBurned C kcal
        FlightsClimbed C count
        PushCount C count
        SwimmingStrokeCount C count
        NikeFuel C count
        AppleExerciseTime C min
        AppleStandTime C min
        AppleMoveTime C min
        PhysicalEffort DA kcal/hr·kg
        WorkoutEffortScore DA appleEffortScore
        EstimatedWorkoutEffortScore DA appleEffortScore
        CyclingCadence DA count/min
        CyclingFunctionalThresholdPower DA W
        CyclingPower DA W
        CyclingSpeed DA m/s
        CrossCountrySkiingSpeed DA m/s
        PaddleSportsSpeed DA m/s
        RowingSpeed DA m/s
        RunningPower DA W
        RunningSpeed DA m/s
        UnderwaterDepth DA m
        HeartRate DTW count/min
        RestingHeartRate DA count/min
        WalkingHeartRateAverage DA count/min
        HeartRateVariabilitySDNN DA ms
        HeartRateRecoveryOneMinute DA count/min
        AtrialFibrillationBurden DTW %
        PeripheralPerfusionIndex DA %
        VO2Max DA mL/min·kg
        OxygenSaturation DA %
        RespiratoryRate DA count/min
        ForcedExpiratoryVolume1 DA L
        ForcedVitalCapacity DA L
        PeakExpiratoryFlowRate DA L/min
        InhalerUsage C count
        AppleSleepingBreathingDisturbances DA count
        BodyMass DA kg
        BodyMassIndex DA count
        BodyFatPercentage DA %
        LeanBodyMass DA kg
        Height DA m
        WaistCircumference DA m
        ElectrodermalActivity DA S
        AppleSleepingWristTemperature DA degC
        BodyTemperature DA degC
        BasalBodyTemperature DA degC
        BloodPressureSystolic DA mmHg
        BloodPressureDiastolic DA mmHg
        BloodGlucose DA mg/dL
        BloodAlcoholContent DA %
        InsulinDelivery C IU
        EnvironmentalAudioExposure DECL dBASPL
        HeadphoneAudioExposure DECL dBASPL
        EnvironmentalSoundReduction DECL dBASPL
        WalkingSpeed DA m/s
        WalkingStepLength DA m
        WalkingAsymmetryPercentage DA %
        WalkingDoubleSupportPercentage DA %
        StairAscentSpeed DA m/s
        StairDescentSpeed DA m/s
        SixMinuteWalkTestDistance DA m
        AppleWalkingSteadiness DA %
        RunningGroundContactTime DA ms
        RunningStrideLength DA m
        RunningVerticalOscillation DA cm
        NumberOfTimesFallen C count
        NumberOfAlcoholicBeverages C count
        TimeInDaylight C min
        UVExposure DA count
        WaterTemperature DA degC
        DietaryEnergyConsumed C kcal
        DietaryWater C mL
        DietaryCarbohydrates C g
        DietaryFiber C g
        DietarySugar C g
        DietaryFatTotal C g
        DietaryFatSaturated C g
        DietaryFatMonounsaturated C g
        DietaryFatPolyunsaturated C g
        DietaryCholesterol C g
        DietaryProtein C g
        DietarySodium C g
        DietaryPotassium C g
        DietaryCalcium C g
        DietaryIron C g
        DietaryCaffeine C g
        DietaryVitaminA C g
        DietaryVitaminB6 C g
        DietaryVitaminB12 C g
        DietaryVitaminC C g
        DietaryVitaminD C g
        DietaryVitaminE C g
        DietaryVitaminK C g
        DietaryThiamin C g
        DietaryRiboflavin C g
        DietaryNiacin C g
        DietaryFolate C g
        DietaryBiotin C g
        DietaryPantothenicAcid C g
        DietaryPhosphorus C g
        DietaryIodine C g
        DietaryMagnesium C g
        DietaryZinc C g
        DietarySelenium C g
        DietaryCopper C g
        DietaryManganese C g
        DietaryChromium C g
        DietaryMolybdenum C g
        DietaryChloride C g
        """

    // docs/reference/healthkit.md §2.2; HypertensionEvent (iOS 26.2) from HealthKit's release notes.
    static let categoryNames = """
        SleepAnalysis AppleStandHour MindfulSession HighHeartRateEvent LowHeartRateEvent
        IrregularHeartRhythmEvent LowCardioFitnessEvent AudioExposureEvent HeadphoneAudioExposureEvent
        AppleWalkingSteadinessEvent HandwashingEvent ToothbrushingEvent SleepApneaEvent MenstrualFlow
        IntermenstrualBleeding BleedingDuringPregnancy BleedingAfterPregnancy InfrequentMenstrualCycles
        IrregularMenstrualCycles ProlongedMenstrualPeriods PersistentIntermenstrualBleeding
        CervicalMucusQuality OvulationTestResult PregnancyTestResult ProgesteroneTestResult
        SexualActivity Contraceptive Pregnancy Lactation AppetiteChanges MoodChanges SleepChanges
        AbdominalCramps Acne BladderIncontinence Bloating BreastPain ChestTightnessOrPain Chills
        Constipation Coughing Diarrhea Dizziness DrySkin Fainting Fatigue Fever GeneralizedBodyAche
        HairLoss Headache Heartburn HotFlashes LossOfSmell LossOfTaste LowerBackPain MemoryLapse Nausea
        NightSweats PelvicPain RapidPoundingOrFlutteringHeartbeat RunnyNose ShortnessOfBreath
        SinusCongestion SkippedHeartbeat SoreThroat VaginalDryness Vomiting Wheezing HypertensionEvent
        """
}
