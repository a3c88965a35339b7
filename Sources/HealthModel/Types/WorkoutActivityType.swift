/// A workout's activity type (HealthKit: `HKWorkoutActivityType`), as exported by name
/// (`HKWorkoutActivityTypeRunning`) with its raw value when known.
public struct WorkoutActivityType: Hashable, Sendable {
    public var name: String
    public var rawValue: Int?

    public init(name: String) {
        self.name = name
        self.rawValue = Self.rawValues[name]
    }

    /// The activity in words, as the Health app lists it: `HKWorkoutActivityTypeRunning` is
    /// `Running`, `…TraditionalStrengthTraining` `Traditional Strength Training`, `…MindAndBody`
    /// `Mind and Body`: the name split at its capitals, as for a type healthport does not know
    /// yet; a name without the prefix is kept as it is.
    public var words: String {
        let prefix = "HKWorkoutActivityType"
        guard name.hasPrefix(prefix), name.count > prefix.count else { return name }
        let bare = String(name.dropFirst(prefix.count))
        var text = ""
        var previous: Character? = nil
        for character in bare {
            if character.isUppercase, let previous, previous.isLowercase { text += " " }
            text.append(character)
            previous = character
        }
        return text.replacingOccurrences(of: " And ", with: " and ")
    }

    static let rawValues: [String: Int] = {
        let names = """
            1 AmericanFootball 2 Archery 3 AustralianFootball 4 Badminton 5 Baseball 6 Basketball
            7 Bowling 8 Boxing 9 Climbing 10 Cricket 11 CrossTraining 12 Curling 13 Cycling 14 Dance
            15 DanceInspiredTraining 16 Elliptical 17 EquestrianSports 18 Fencing 19 Fishing
            20 FunctionalStrengthTraining 21 Golf 22 Gymnastics 23 Handball 24 Hiking 25 Hockey
            26 Hunting 27 Lacrosse 28 MartialArts 29 MindAndBody 30 MixedMetabolicCardioTraining
            31 PaddleSports 32 Play 33 PreparationAndRecovery 34 Racquetball 35 Rowing 36 Rugby
            37 Running 38 Sailing 39 SkatingSports 40 SnowSports 41 Soccer 42 Softball 43 Squash
            44 StairClimbing 45 SurfingSports 46 Swimming 47 TableTennis 48 Tennis 49 TrackAndField
            50 TraditionalStrengthTraining 51 Volleyball 52 Walking 53 WaterFitness 54 WaterPolo
            55 WaterSports 56 Wrestling 57 Yoga 58 Barre 59 CoreTraining 60 CrossCountrySkiing
            61 DownhillSkiing 62 Flexibility 63 HighIntensityIntervalTraining 64 JumpRope 65 Kickboxing
            66 Pilates 67 Snowboarding 68 Stairs 69 StepTraining 70 WheelchairWalkPace
            71 WheelchairRunPace 72 TaiChi 73 MixedCardio 74 HandCycling 75 DiscSports 76 FitnessGaming
            77 CardioDance 78 SocialDance 79 Pickleball 80 Cooldown 82 SwimBikeRun 83 Transition
            84 UnderwaterDiving 3000 Other
            """.split(whereSeparator: { $0 == " " || $0 == "\n" })
        var map: [String: Int] = [:]
        var index = 0
        while index + 1 < names.count {
            if let raw = Int(names[index]) { map["HKWorkoutActivityType" + names[index + 1]] = raw }
            index += 2
        }
        return map
    }()
}

/// A workout event's type (HealthKit: `HKWorkoutEventType`), as exported by name.
public struct WorkoutEventType: Hashable, Sendable {
    public var name: String
    public var rawValue: Int?

    public init(name: String) {
        self.name = name
        self.rawValue = Self.rawValues[name]
    }

    static let rawValues: [String: Int] = [
        "HKWorkoutEventTypePause": 1, "HKWorkoutEventTypeResume": 2, "HKWorkoutEventTypeLap": 3,
        "HKWorkoutEventTypeMarker": 4, "HKWorkoutEventTypeMotionPaused": 5,
        "HKWorkoutEventTypeMotionResumed": 6, "HKWorkoutEventTypeSegment": 7,
        "HKWorkoutEventTypePauseOrResumeRequest": 8,
    ]
}
