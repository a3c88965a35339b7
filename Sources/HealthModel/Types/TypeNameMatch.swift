import Foundation

/// What a type name a person typed finds: one type, several, or none.
///
/// People name types the way the Health app shows them (`Steps`, `Sleep`, `Weight`,
/// `resting heart rate`), not by HealthKit's identifiers. A name is tried, in this order, as:
///
/// 1. an identifier or short name healthport knows, in any case and with or without spaces
///    (`HKQuantityTypeIdentifierStepCount`, `stepcount`, `resting heart rate`);
/// 2. a full identifier with one of HealthKit's prefixes, known or not
///    (`HKQuantityTypeIdentifierFutureThing`): such samples are read, written and counted like
///    any other, so they can be selected by their identifier (``TypeCatalogue/isFullIdentifier(_:)``);
/// 3. a name the Health app or everyday speech uses for a type (``TypeCatalogue/commonNames``:
///    `weight` for BodyMass, `sleep` for SleepAnalysis);
/// 4. the words of the name against the words of every short name (`resting heart` finds
///    RestingHeartRate): the types holding every word typed. One such type is the match; of
///    several, the type whose every word was typed (`stand hour`), else they are
///    ``ambiguous(_:)`` (`energy`: active, resting or dietary).
///
/// Words are compared in lower case, a plural `s` dropped (`steps` finds StepCount), and
/// `Apple` and `Dietary` count as left over for no one (`stand hour` is AppleStandHour,
/// `water` DietaryWater rather than WaterTemperature).
public enum TypeNameMatch: Hashable, Sendable {
    /// The one type the name finds: its full identifier.
    case type(String)
    /// The types the name fits equally well, by full identifier, in short-name order.
    case ambiguous([String])
    /// Nothing: not a name, identifier or word of any type.
    case none
}

extension TypeCatalogue {
    /// HealthKit's identifier prefixes: a name that starts with one of these followed by letters
    /// and digits is a full identifier, selected as written even when healthport does not know it.
    public static let identifierPrefixes = [
        "HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCorrelationTypeIdentifier",
        "HKClinicalTypeIdentifier", "HKDataTypeIdentifier", "HKCharacteristicTypeIdentifier",
        "HKScoredAssessmentTypeIdentifier", "HKDocumentTypeIdentifier",
    ]

    /// Whether `name` is a full identifier of HealthKit's form (a known prefix, then an ASCII
    /// letter, then letters and digits), whether or not healthport knows the type.
    public static func isFullIdentifier(_ name: String) -> Bool {
        for prefix in identifierPrefixes where name.hasPrefix(prefix) {
            let rest = name.utf8.dropFirst(prefix.utf8.count)
            guard let first = rest.first, isASCIILetter(first), rest.count <= 200 else { return false }
            return rest.allSatisfy { isASCIILetter($0) || ($0 >= 0x30 && $0 <= 0x39) }
        }
        return false
    }

    /// The exact ways of naming a type: a known identifier or short name in any case, or a full
    /// identifier of HealthKit's form. No word matching: for files that grant access (a policy),
    /// where a loose match could grant a type nobody named.
    public static func resolve(exactTypeName name: String) -> String? {
        if let entry = byIdentifier[canonicalIdentifier(name)] { return entry.identifier }
        if let identifier = byShortNameLowercased[name.lowercased()] { return identifier }
        if isFullIdentifier(name) && !isTypoOfKnownIdentifier(name) { return canonicalIdentifier(name) }
        return nil
    }

    /// Whether an unknown full identifier is one or two letters from a known one
    /// (`HKQuantityTypeIdentifierStepCont`): a typo, refused with the known one suggested,
    /// rather than a type newer than healthport, which selects nothing on a misspelling.
    /// HealthKit's new types differ from the old ones by whole words.
    static func isTypoOfKnownIdentifier(_ name: String) -> Bool {
        let typed = Array(name.utf8)
        for entry in all where abs(entry.identifier.utf8.count - typed.count) <= 2 {
            if boundedEditDistance(typed, Array(entry.identifier.utf8), limit: 2) <= 2 { return true }
        }
        return false
    }

    /// Levenshtein distance, or `limit + 1` once every path exceeds `limit`.
    static func boundedEditDistance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            var rowMinimum = i + 1
            for (j, y) in b.enumerated() {
                let value = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
                current.append(value)
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            previous = current
        }
        return previous[b.count]
    }

    /// What `name` finds, as ``TypeNameMatch`` describes.
    public static func match(typeName raw: String) -> TypeNameMatch {
        let name = raw.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.utf8.count <= 300 else { return .none }
        if let identifier = resolve(exactTypeName: name) { return .type(identifier) }
        // The same name without its spaces, hyphens and underscores (`resting heart rate`, `GAD-7`).
        let joined = String(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) })
        if let identifier = byShortNameLowercased[joined] { return .type(identifier) }
        let typed = words(of: name)
        guard !typed.isEmpty else { return .none }
        if let identifier = commonNamesByWords[typed.joined(separator: " ")] { return .type(identifier) }
        var best: (leftOver: Int, identifiers: [String])? = nil
        var candidates: [String] = []
        for (identifier, typeWords) in wordsByIdentifier {
            guard typed.allSatisfy(typeWords.contains) else { continue }
            candidates.append(identifier)
            let leftOver = typeWords.filter { !typed.contains($0) && !freeWords.contains($0) }.count
            if best == nil || leftOver < best!.leftOver {
                best = (leftOver, [identifier])
            } else if leftOver == best!.leftOver {
                best!.identifiers.append(identifier)
            }
        }
        guard let best else { return .none }
        // A type whose every word was typed (but free ones) wins; short of that, a word several
        // types hold is ambiguous, whichever has fewer words left: `energy` is active, resting
        // or dietary energy, and a person granting "energy" must not share their food log.
        if best.leftOver > 0 && candidates.count > 1 {
            return .ambiguous(candidates.sorted { shortName(of: $0) < shortName(of: $1) })
        }
        if best.identifiers.count == 1 { return .type(best.identifiers[0]) }
        return .ambiguous(best.identifiers.sorted { shortName(of: $0) < shortName(of: $1) })
    }

    /// Every known type's short name, sorted: what shells complete `--type` with.
    public static var shortNames: [String] { all.map { shortName(of: $0.identifier) }.sorted() }

    /// Names the Health app shows, or people say, that are not a type's own words: each maps to
    /// the type it means. Keys are compared as ``words(of:)`` gives them.
    public static let commonNames: [(name: String, shortName: String)] = [
        ("steps", "StepCount"), ("weight", "BodyMass"), ("body weight", "BodyMass"),
        ("sleep", "SleepAnalysis"), ("bmi", "BodyMassIndex"), ("body fat", "BodyFatPercentage"),
        ("calories", "ActiveEnergyBurned"), ("active calories", "ActiveEnergyBurned"),
        ("resting energy", "BasalEnergyBurned"), ("resting calories", "BasalEnergyBurned"),
        ("exercise", "AppleExerciseTime"), ("exercise minutes", "AppleExerciseTime"),
        ("stand hours", "AppleStandHour"), ("stand minutes", "AppleStandTime"),
        ("flights", "FlightsClimbed"), ("floors", "FlightsClimbed"),
        ("hrv", "HeartRateVariabilitySDNN"), ("pulse", "HeartRate"),
        ("blood oxygen", "OxygenSaturation"), ("spo2", "OxygenSaturation"),
        ("cardio fitness", "VO2Max"), ("cardio recovery", "HeartRateRecoveryOneMinute"),
        ("blood sugar", "BloodGlucose"), ("glucose", "BloodGlucose"),
        ("mindful minutes", "MindfulSession"), ("mindfulness", "MindfulSession"),
        ("meditation", "MindfulSession"), ("period", "MenstrualFlow"), ("menstruation", "MenstrualFlow"),
        ("noise", "EnvironmentalAudioExposure"), ("environmental sound levels", "EnvironmentalAudioExposure"),
        ("headphone audio levels", "HeadphoneAudioExposure"), ("ecg", "Electrocardiogram"),
        ("ekg", "Electrocardiogram"), ("anxiety", "GAD7"), ("depression", "PHQ9"),
        ("mood", "StateOfMind"), ("emotions", "StateOfMind"), ("blood pressure notifications", "HypertensionEvent"),
        ("daylight", "TimeInDaylight"), ("alcohol", "NumberOfAlcoholicBeverages"),
        ("falls", "NumberOfTimesFallen"), ("route", "WorkoutRoute"), ("glasses", "VisionPrescription"),
        ("contacts", "VisionPrescription"), ("hearing test", "Audiogram"),
    ]

    /// The words of a name: split at spaces and punctuation and where case changes
    /// (`RestingHeartRate`, `VO2Max`, `UVExposure`), digits kept with the word before them,
    /// lower-cased, a plural `s` dropped.
    public static func words(of name: String) -> [String] {
        var words: [String] = []
        var current: [Character] = []
        let characters = Array(name)
        func flush() {
            guard !current.isEmpty else { return }
            words.append(stem(String(current).lowercased()))
            current = []
        }
        for (i, c) in characters.enumerated() {
            guard c.isLetter || c.isNumber else {
                flush()
                continue
            }
            if c.isUppercase, let last = current.last {
                let nextIsLower = i + 1 < characters.count && characters[i + 1].isLowercase
                // `HeartRate`: a capital after a small letter or digit begins a word; `UVExposure`:
                // so does the last capital of a run when a small letter follows.
                if last.isLowercase || (last.isNumber && nextIsLower) || (last.isUppercase && nextIsLower) { flush() }
            }
            current.append(c)
        }
        flush()
        return words
    }

    /// `steps` → `step`; words of three letters or fewer, and those ending in `ss`, as they are.
    static func stem(_ word: String) -> String {
        guard word.count > 3, word.hasSuffix("s"), !word.hasSuffix("ss") else { return word }
        return String(word.dropLast())
    }

    /// Words that a type's name holds but nobody types: left over without counting.
    static let freeWords: Set<String> = ["apple", "dietary"]

    static let wordsByIdentifier: [(String, Set<String>)] = all.map { ($0.identifier, Set(words(of: shortName(of: $0.identifier)))) }

    static let commonNamesByWords: [String: String] = {
        var map: [String: String] = [:]
        let byShortName = Dictionary(all.map { (shortName(of: $0.identifier), $0.identifier) }, uniquingKeysWith: { first, _ in first })
        for (name, short) in commonNames {
            guard let identifier = byShortName[short] else { continue }
            map[words(of: name).joined(separator: " ")] = identifier
        }
        return map
    }()

    static func isASCIILetter(_ byte: UInt8) -> Bool { (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) }
}
