/// One FHIR `Coding`: a code in a code system, with its display text where the table gives one.
///
/// Codes are facts taken from HealthKitOnFHIR's table (LOINC, IEEE 11073 for the ECG, UCUM for
/// units) or HealthKit's own names in Apple's documentation namespace, never made up here.
struct FHIRCoding: Hashable, Sendable {
    var system: String
    var code: String
    var display: String?

    /// LOINC's system URI: codes in it are what a study or a clinic queries first.
    static let loincSystem = "http://loinc.org"
    /// The code system HealthKitOnFHIR uses for HealthKit's own identifiers.
    static let healthKitSystem = "http://developer.apple.com/documentation/healthkit"
    /// UCUM's system URI, for `Quantity.system`.
    static let ucumSystem = "http://unitsofmeasure.org"

    /// A HealthKit identifier as a code, for what the table does not map: the type's own name,
    /// as HealthKitOnFHIR codes its HealthKit-only types.
    static func healthKit(_ code: String, display: String? = nil) -> FHIRCoding {
        FHIRCoding(system: healthKitSystem, code: code, display: display)
    }

    var isLOINC: Bool { system == Self.loincSystem }
}

/// The unit an Observation's value is written in: HealthKit's unit the value is converted to
/// (`hkunit`), the human-readable `unit`, and UCUM's `code` when the table names one (counts of
/// steps or falls have none).
struct FHIRUnitMapping: Hashable, Sendable {
    var healthKitUnit: String
    var unit: String
    var system: String?
    var code: String?
}

/// What the table says about one type: its codings (the Observation's `code`), its categories,
/// and for quantities the unit.
struct FHIRTypeMapping: Hashable, Sendable {
    var codings: [FHIRCoding]
    var categories: [FHIRCoding]
    var unit: FHIRUnitMapping?

    /// Whether a LOINC code is among the codings: what the run's tally counts.
    var hasLOINC: Bool { codings.contains { $0.isLOINC } }
}
