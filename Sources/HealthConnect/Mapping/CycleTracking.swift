import HealthModel

/// Health Connect's cycle-tracking records as HealthKit's reproductive-health category samples.
///
/// The codes are the platform's (`MenstruationFlowRecord.MenstruationFlowType`,
/// `OvulationTestRecord.OvulationTestResult`, `CervicalMucusRecord.CervicalMucusAppearance` and
/// `CervicalMucusSensation`, `SexualActivityRecord.SexualActivityProtectionUsed` in AOSP), as
/// the database stores them. Each record keeps its own code in metadata beside HealthKit's
/// value, since several codes share a value and some have none. A code newer than this table
/// is read as the record's "unknown", as the platform's own reader reads a value it does not
/// know (AOSP: "any unknown value will also be returned as `RESULT_INCONCLUSIVE`").
///
/// The menstruation period has no sample of its own in HealthKit, which marks where a cycle
/// starts with `HKMenstrualCycleStart` on a menstrual flow sample. A period record (an
/// interval, with no value) becomes one menstrual flow sample over the period, of unspecified
/// flow, with `HKMenstrualCycleStart` = 1: it says what the record says (the person bled, from
/// its start to its end, and a cycle began at its start) and nothing more. Flow records, which
/// say how much on one day, keep `HKMenstrualCycleStart` = 0 (HealthKit requires the key on
/// every flow sample); healthport does not decide which of them opens a period.
enum CycleTracking: Sendable, Hashable {
    case menstruationFlow
    case menstruationPeriod
    case ovulationTest
    case cervicalMucus
    case intermenstrualBleeding
    case sexualActivity

    /// The table's own columns, after every record's, in the order the reader selects them:
    /// each holds a code.
    var columns: [String] {
        switch self {
        case .menstruationFlow: return ["flow"]
        case .ovulationTest: return ["result"]
        case .cervicalMucus: return ["sensation", "appearance"]
        case .sexualActivity: return ["protection_used"]
        case .menstruationPeriod, .intermenstrualBleeding: return []
        }
    }

    /// Whether the record is an instant; the period alone is an interval.
    var isInstant: Bool { self != .menstruationPeriod }

    /// The HealthKit type the records become.
    var typeIdentifier: String {
        switch self {
        case .menstruationFlow, .menstruationPeriod: return "HKCategoryTypeIdentifierMenstrualFlow"
        case .ovulationTest: return "HKCategoryTypeIdentifierOvulationTestResult"
        case .cervicalMucus: return "HKCategoryTypeIdentifierCervicalMucusQuality"
        case .intermenstrualBleeding: return "HKCategoryTypeIdentifierIntermenstrualBleeding"
        case .sexualActivity: return "HKCategoryTypeIdentifierSexualActivity"
        }
    }

    /// Every type the records can become: a cervical mucus record whose appearance HealthKit
    /// has no value for becomes `HealthConnectTypes.cervicalMucus`.
    var producedTypes: Set<String> {
        self == .cervicalMucus ? [typeIdentifier, HealthConnectTypes.cervicalMucus] : [typeIdentifier]
    }

    /// What one record becomes: its type, HealthKit's value and the metadata beside it.
    struct Sample: Equatable {
        var typeIdentifier: String
        var value: CategoryValue
        var metadata: [MetadataEntry]
    }

    /// The sample of a record whose code columns (`columns`, in order) hold `codes`; `nil` is
    /// NULL, read as the code's "unknown" (0), as AOSP's cursor reads it, and kept in no
    /// metadata.
    func sample(codes: [Int64?]) -> Sample {
        let first = codes.first ?? nil
        switch self {
        case .menstruationFlow:
            return Sample(
                typeIdentifier: typeIdentifier, value: Self.bleeding(ofFlow: first),
                metadata: [Self.cycleStart(false)] + Self.code(first, HealthConnectMetadataKeys.menstruationFlow))
        case .menstruationPeriod:
            return Sample(typeIdentifier: typeIdentifier, value: Self.bleeding(ofFlow: 0), metadata: [Self.cycleStart(true)])
        case .ovulationTest:
            return Sample(
                typeIdentifier: typeIdentifier, value: Self.ovulation(ofResult: first),
                metadata: Self.code(first, HealthConnectMetadataKeys.ovulationTestResult))
        case .cervicalMucus:
            let sensation = first
            let appearance = codes.count > 1 ? codes[1] : nil
            let metadata =
                Self.code(appearance, HealthConnectMetadataKeys.cervicalMucusAppearance)
                + Self.code(sensation, HealthConnectMetadataKeys.cervicalMucusSensation)
            guard let quality = Self.quality(ofAppearance: appearance) else {
                return Sample(typeIdentifier: HealthConnectTypes.cervicalMucus, value: Self.notApplicable, metadata: metadata)
            }
            return Sample(typeIdentifier: typeIdentifier, value: quality, metadata: metadata)
        case .intermenstrualBleeding:
            return Sample(typeIdentifier: typeIdentifier, value: Self.notApplicable, metadata: [])
        case .sexualActivity:
            var metadata: [MetadataEntry] = []
            // HealthKit's key is a Boolean, absent when it is not known.
            switch first {
            case 1: metadata.append(MetadataEntry(key: "HKSexualActivityProtectionUsed", value: .number(ExportNumber(1))))
            case 2: metadata.append(MetadataEntry(key: "HKSexualActivityProtectionUsed", value: .number(ExportNumber(0))))
            default: break
            }
            return Sample(
                typeIdentifier: typeIdentifier, value: Self.notApplicable,
                metadata: metadata + Self.code(first, HealthConnectMetadataKeys.protectionUsed))
        }
    }

    /// A flow code (0 unknown, 1 light, 2 medium, 3 heavy) as HealthKit's vaginal bleeding
    /// (unspecified 1, light 2, medium 3, heavy 4; Health Connect has no "none", 5). Unknown
    /// flow is bleeding of unspecified amount: the record says there was flow.
    static func bleeding(ofFlow code: Int64?) -> CategoryValue {
        switch code {
        case 1: return CategoryValue(rawValue: 2, name: "HKCategoryValueVaginalBleedingLight")
        case 2: return CategoryValue(rawValue: 3, name: "HKCategoryValueVaginalBleedingMedium")
        case 3: return CategoryValue(rawValue: 4, name: "HKCategoryValueVaginalBleedingHeavy")
        default: return CategoryValue(rawValue: 1, name: "HKCategoryValueVaginalBleedingUnspecified")
        }
    }

    /// An ovulation test's result (0 inconclusive, 1 positive, 2 high, 3 negative) as
    /// HealthKit's (negative 1, luteinizing hormone surge 2, indeterminate 3, estrogen surge 4).
    /// Health Connect's "positive" is the peak of the LH surge, its "high" the rise in estrogen
    /// (or LH) that opens the fertile window, which is what HealthKit's estrogen surge means.
    static func ovulation(ofResult code: Int64?) -> CategoryValue {
        switch code {
        case 1: return CategoryValue(rawValue: 2, name: "HKCategoryValueOvulationTestResultLuteinizingHormoneSurge")
        case 2: return CategoryValue(rawValue: 4, name: "HKCategoryValueOvulationTestResultEstrogenSurge")
        case 3: return CategoryValue(rawValue: 1, name: "HKCategoryValueOvulationTestResultNegative")
        default: return CategoryValue(rawValue: 3, name: "HKCategoryValueOvulationTestResultIndeterminate")
        }
    }

    /// An appearance (1 dry, 2 sticky, 3 creamy, 4 watery, 5 egg white) as HealthKit's cervical
    /// mucus quality, whose values are the same numbers; `nil` for unknown (0), unusual (6) and
    /// newer codes, which HealthKit has no value for.
    static func quality(ofAppearance code: Int64?) -> CategoryValue? {
        let names: [Int64: String] = [1: "Dry", 2: "Sticky", 3: "Creamy", 4: "Watery", 5: "EggWhite"]
        guard let code, let name = names[code] else { return nil }
        return CategoryValue(rawValue: Int(code), name: "HKCategoryValueCervicalMucusQuality" + name)
    }

    /// HealthKit's value for types that carry none, as Apple's exports name it.
    static let notApplicable = CategoryValue.namedNotApplicable

    static func cycleStart(_ starts: Bool) -> MetadataEntry {
        MetadataEntry(key: "HKMenstrualCycleStart", value: .number(ExportNumber(starts ? 1 : 0)))
    }

    /// A record's own code under `key`, as text (a key of Health Connect's holds a string, as
    /// Apple's export would print it); none for NULL.
    static func code(_ code: Int64?, _ key: String) -> [MetadataEntry] {
        code.map { [MetadataEntry(key: key, value: .string(String($0)))] } ?? []
    }
}
