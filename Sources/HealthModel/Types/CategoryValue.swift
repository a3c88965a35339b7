/// A category sample's value (HealthKit: `HKCategorySample.value`, an `Int` from the type's enum).
///
/// Exports print the enum case's *name* (`HKCategoryValueSleepAnalysisAsleepCore`), never the
/// integer, and older exports omit `value` for "not applicable" types. Both the name and the raw
/// value are kept: the name for output exactly as exported, the raw value for predicates and
/// identity. An unknown name keeps `rawValue == nil`: healthport never guesses 0 (the mistake
/// that lost sleep stages in other parsers).
public struct CategoryValue: Hashable, Sendable {
    /// The raw integer, when the name is known or the export printed a number.
    public var rawValue: Int?
    /// The name as exported; `nil` when the export omitted `value` or printed a number.
    public var name: String?

    public init(rawValue: Int?, name: String?) {
        self.rawValue = rawValue
        self.name = name
    }

    /// The value of a `Record` with no `value` attribute: `HKCategoryValueNotApplicable` (0).
    public static let notApplicable = CategoryValue(rawValue: 0, name: nil)

    /// Interprets an exported `value` attribute.
    public static func interpret(_ text: String) -> CategoryValue {
        if let raw = rawValues[text] { return CategoryValue(rawValue: raw, name: text) }
        if let number = Int(text) { return CategoryValue(rawValue: number, name: nil) }
        return CategoryValue(rawValue: nil, name: text)
    }

    /// The name HealthKit uses today for a raw value of a type's enum; for output of numbers and
    /// for canonical identity (the old `…Asleep` and the new `…AsleepUnspecified` are one value).
    public static func rawValue(forName name: String) -> Int? { rawValues[name] }

    /// Every exported value name, by enum (docs/reference/healthkit.md §2.3).
    static let rawValues: [String: Int] = {
        let enums: [(String, [(String, Int)])] = [
            ("HKCategoryValue", [("NotApplicable", 0)]),
            (
                "HKCategoryValueSleepAnalysis",
                [
                    ("InBed", 0), ("AsleepUnspecified", 1), ("Asleep", 1), ("Awake", 2),
                    ("AsleepCore", 3), ("AsleepDeep", 4), ("AsleepREM", 5),
                ]
            ),
            ("HKCategoryValueAppleStandHour", [("Stood", 0), ("Idle", 1)]),
            (
                "HKCategoryValueAppleWalkingSteadinessEvent",
                [("InitialLow", 1), ("InitialVeryLow", 2), ("RepeatLow", 3), ("RepeatVeryLow", 4)]
            ),
            ("HKCategoryValueEnvironmentalAudioExposureEvent", [("MomentaryLimit", 1)]),
            ("HKCategoryValueHeadphoneAudioExposureEvent", [("SevenDayLimit", 1)]),
            ("HKCategoryValueAudioExposureEvent", [("LoudEnvironment", 1)]),
            ("HKCategoryValueLowCardioFitnessEvent", [("LowFitness", 1)]),
            (
                "HKCategoryValueVaginalBleeding",
                [("Unspecified", 1), ("Light", 2), ("Medium", 3), ("Heavy", 4), ("None", 5)]
            ),
            (
                "HKCategoryValueMenstrualFlow",
                [("Unspecified", 1), ("Light", 2), ("Medium", 3), ("Heavy", 4), ("None", 5)]
            ),
            (
                "HKCategoryValueCervicalMucusQuality",
                [("Dry", 1), ("Sticky", 2), ("Creamy", 3), ("Watery", 4), ("EggWhite", 5)]
            ),
            (
                "HKCategoryValueOvulationTestResult",
                [
                    ("Negative", 1), ("LuteinizingHormoneSurge", 2), ("Positive", 2),
                    ("Indeterminate", 3), ("EstrogenSurge", 4),
                ]
            ),
            ("HKCategoryValuePregnancyTestResult", [("Negative", 1), ("Positive", 2), ("Indeterminate", 3)]),
            ("HKCategoryValueProgesteroneTestResult", [("Negative", 1), ("Positive", 2), ("Indeterminate", 3)]),
            (
                "HKCategoryValueContraceptive",
                [
                    ("Unspecified", 1), ("Implant", 2), ("Injection", 3), ("IntrauterineDevice", 4),
                    ("IntravaginalRing", 5), ("Oral", 6), ("Patch", 7),
                ]
            ),
            (
                "HKCategoryValueSeverity",
                [("Unspecified", 0), ("NotPresent", 1), ("Mild", 2), ("Moderate", 3), ("Severe", 4)]
            ),
            ("HKCategoryValuePresence", [("Present", 0), ("NotPresent", 1)]),
            (
                "HKCategoryValueAppetiteChanges",
                [("Unspecified", 0), ("NoChange", 1), ("Decreased", 2), ("Increased", 3)]
            ),
            // Health Connect's activity intensity, its platform codes (HealthConnectActivityIntensity).
            ("HealthConnectActivityIntensity", [("Moderate", 0), ("Vigorous", 1)]),
        ]
        var map: [String: Int] = [:]
        for (prefix, cases) in enums {
            for (name, raw) in cases { map[prefix + name] = raw }
        }
        return map
    }()
}
