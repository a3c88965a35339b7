/// What a category type's day is, as the Health app shows it: the one table every daily figure
/// of a category type follows (`healthport summary`, `days`, the store's `daily_summary`, the
/// lake, the assistant, the report, Python).
///
/// Counting every sample whatever its value is what the Health app never does: an
/// `AppleStandHour` sample exists for every hour the Watch was worn, stood or idle, and the
/// Health app's stand hours are the stood ones; a symptom logged as "not present" is a day
/// without it. The rules, with HealthKit's documentation as the source
/// (`docs/reference/healthkit.md` §2.2–2.3, and `docs/reference/daily-measures.md` for each
/// type's reasoning):
///
/// | types | measure |
/// | --- | --- |
/// | `AppleStandHour` | `.hoursWithValue(0)`: the hours with a `stood` sample, counted once |
/// | `SleepAnalysis` | `.night`: the asleep and in-bed time of the night that ends that morning |
/// | `MindfulSession`, `HandwashingEvent`, `ToothbrushingEvent`, `Pregnancy`, `Lactation`, `Contraceptive` | `.timeAndCount`: the time covered (sources merged) and the sessions |
/// | heart rate, audio, steadiness, apnea, fitness, hypertension and cycle-deviation events | `.events`: counted, never timed |
/// | symptoms, `MoodChanges`, `SleepChanges`, `AppetiteChanges`, bleeding types | `.present(absent:)`: the samples whose value says it was there |
/// | the other value-bearing types (mucus, test results, sexual activity, bleeding between periods; Health Connect's `HealthConnectCervicalMucus`) | `.events` |
/// | Health Connect's `HealthConnectActivityIntensity` | `.timeAndCount`: the minutes of moderate or vigorous activity |
/// | Health Connect's `HealthConnectPlannedExerciseSession` | `.events`: the plans, counted; a planned hour is no hour spent |
/// | a type newer than this table | `.timeAndCount` |
///
/// For example:
/// ```swift
/// CategoryDayMeasure.of("HKCategoryTypeIdentifierAppleStandHour")   // .hoursWithValue(0)
/// CategoryDayMeasure.of("HKCategoryTypeIdentifierHeadache")         // .present(absent: [1])
/// CategoryDayMeasure.of("HKCategoryTypeIdentifierHeadache").counts(value: 1)   // false: not present
/// ```
public enum CategoryDayMeasure: Sendable, Equatable {
    /// The hours with a sample of this value, counted once whatever the sources: the count is
    /// the measure, no time (`AppleStandHour`: `stood` is 0, `idle` 1).
    case hoursWithValue(Int)
    /// The night that ends that morning (`SleepNight`): its asleep time as the day's duration,
    /// its time in bed beside it. Never the time the day's samples cover: an in-bed interval
    /// around the Watch's stages would count the same hours twice.
    case night
    /// Time (the union of the samples, sources merged, cut at midnight) and the samples counted
    /// once.
    case timeAndCount
    /// The samples counted once, sources merged; their length means nothing (an event's
    /// interval is when the Watch noticed it).
    case events
    /// The samples whose value says the thing was there, counted once; the values in `absent`
    /// ("not present", "none", "no change") are not counted at all.
    case present(absent: Set<Int>)

    /// Whether a sample of `value` counts (`nil`: a value a newer iOS added, which counts as
    /// present, never as absent; healthport never guesses a value).
    public func counts(value: Int?) -> Bool {
        switch self {
        case .hoursWithValue(let counted): return value == counted
        case .present(let absent): return value.map { !absent.contains($0) } ?? true
        case .night, .timeAndCount, .events: return true
        }
    }

    /// Whether the measure has a time (`duration`) beside its count.
    public var isTimed: Bool {
        switch self {
        case .night, .timeAndCount: return true
        case .hoursWithValue, .present, .events: return false
        }
    }

    /// The measure of the category type `identifier` (its full identifier).
    public static func of(_ identifier: String) -> CategoryDayMeasure {
        // A type newer than this table: its time and its samples, which assume nothing of
        // its values.
        rule(identifier) ?? .timeAndCount
    }

    /// Whether the table has a rule of its own for the category type `identifier` (every type
    /// healthport knows has one; a newer type falls back to `.timeAndCount`).
    public static func isRuled(_ identifier: String) -> Bool { rule(identifier) != nil }

    /// HealthKit's types by the name after their prefix; Health Connect's own
    /// (`HealthConnect…`) by their whole identifier.
    private static func rule(_ identifier: String) -> CategoryDayMeasure? {
        let prefix = "HKCategoryTypeIdentifier"
        if identifier.hasPrefix(prefix) { return byName[String(identifier.dropFirst(prefix.count))] }
        return healthConnect[identifier]
    }

    /// Health Connect's category types that HealthKit has no type for: a cervical mucus record
    /// HealthKit's quality cannot say is an observation, counted as its `CervicalMucusQuality`
    /// is; an activity intensity is a span of moderate or vigorous activity, whose day is its
    /// minutes (each counted once, vigorous or not: Health Connect's "intensity minutes",
    /// which count a vigorous minute twice, are another figure); a planned exercise session is a
    /// plan, counted on its day, its interval being what was meant, not what was done.
    private static let healthConnect: [String: CategoryDayMeasure] = [
        "HealthConnectCervicalMucus": .events, "HealthConnectActivityIntensity": .timeAndCount,
        "HealthConnectPlannedExerciseSession": .events,
    ]

    /// `HKCategoryValueSeverity.notPresent` and `HKCategoryValuePresence.notPresent`.
    static let notPresent = 1

    private static let byName: [String: CategoryDayMeasure] = {
        var table: [String: CategoryDayMeasure] = [
            "AppleStandHour": .hoursWithValue(0),
            "SleepAnalysis": .night,
            "MindfulSession": .timeAndCount,
            "HandwashingEvent": .timeAndCount,
            "ToothbrushingEvent": .timeAndCount,
            "Pregnancy": .timeAndCount,
            "Lactation": .timeAndCount,
            "Contraceptive": .timeAndCount,
            // HKCategoryValuePresence: present 0, notPresent 1.
            "MoodChanges": .present(absent: [notPresent]),
            "SleepChanges": .present(absent: [notPresent]),
            // HKCategoryValueAppetiteChanges: unspecified 0, noChange 1, decreased 2, increased 3.
            "AppetiteChanges": .present(absent: [1]),
            // HKCategoryValueVaginalBleeding: unspecified 1, light 2, medium 3, heavy 4, none 5.
            "MenstrualFlow": .present(absent: [5]),
            "BleedingDuringPregnancy": .present(absent: [5]),
            "BleedingAfterPregnancy": .present(absent: [5]),
        ]
        for event in """
            HighHeartRateEvent LowHeartRateEvent IrregularHeartRhythmEvent LowCardioFitnessEvent AudioExposureEvent
            EnvironmentalAudioExposureEvent HeadphoneAudioExposureEvent AppleWalkingSteadinessEvent SleepApneaEvent
            HypertensionEvent InfrequentMenstrualCycles IrregularMenstrualCycles ProlongedMenstrualPeriods
            PersistentIntermenstrualBleeding IntermenstrualBleeding CervicalMucusQuality OvulationTestResult
            PregnancyTestResult ProgesteroneTestResult SexualActivity
            """.split(whereSeparator: { $0 == " " || $0 == "\n" })
        {
            table[String(event)] = .events
        }
        // HKCategoryValueSeverity: unspecified 0 (present, severity not given), notPresent 1,
        // mild 2, moderate 3, severe 4.
        for symptom in symptoms { table[symptom] = .present(absent: [notPresent]) }
        return table
    }()

    /// The symptom types, whose values are `HKCategoryValueSeverity`.
    static let symptoms: [String] = """
        AbdominalCramps Acne BladderIncontinence Bloating BreastPain ChestTightnessOrPain Chills Constipation Coughing
        Diarrhea Dizziness DrySkin Fainting Fatigue Fever GeneralizedBodyAche HairLoss Headache Heartburn HotFlashes
        LossOfSmell LossOfTaste LowerBackPain MemoryLapse Nausea NightSweats PelvicPain RapidPoundingOrFlutteringHeartbeat
        RunnyNose ShortnessOfBreath SinusCongestion SkippedHeartbeat SoreThroat VaginalDryness Vomiting Wheezing
        """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
}
