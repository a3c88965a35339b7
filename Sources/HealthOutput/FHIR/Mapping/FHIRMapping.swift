import HealthJSON

/// Which codes, categories and unit each HealthKit type is written with in FHIR, by
/// HealthKitOnFHIR's mapping (`FHIRCodeTable`, healthport's restatement of its facts).
///
/// Indexed once per process, on first use (`healthKitOnFHIR`); runs in other formats never pay
/// it. Writers keep their own per-type caches of the bytes this produces, so nothing here is
/// looked up per record.
struct FHIRMapping: Sendable, Equatable {
    var quantityTypes: [String: FHIRTypeMapping]
    var categoryTypes: [String: FHIRTypeMapping]
    var correlationTypes: [String: FHIRTypeMapping]
    var workout: FHIRTypeMapping
    var electrocardiogram: ElectrocardiogramMapping
    /// How a category type's value is coded (HealthKitOnFHIR's `associatedDataInfo`).
    var categoryValueRules: [String: CategoryValueRule]
    /// HealthKit's value enums by name (`HKCategoryValueSleepAnalysis`), and the ECG's two.
    var valueEnums: [String: ValueEnum]
    /// The code of each workout activity type, by the name the export prints.
    var workoutActivityValues: [String: String]

    /// The ECG's codes: its own, and those of each component HealthKitOnFHIR writes.
    struct ElectrocardiogramMapping: Sendable, Equatable {
        var type: FHIRTypeMapping
        var classification: [FHIRCoding]
        var symptomsStatus: [FHIRCoding]
        var numberOfVoltageMeasurements: FHIRTypeMapping
        var samplingFrequency: FHIRTypeMapping
        var averageHeartRate: FHIRTypeMapping
        var voltageMeasurements: FHIRTypeMapping
        /// Decimal places of each voltage in `SampledData.data`.
        var voltagePrecision: Int
    }

    /// A category type's value rule: the enum its value is coded from (`nil`: the value is the
    /// type's identifier, as a string), and the metadata entries written as components.
    struct CategoryValueRule: Sendable, Equatable {
        var valueEnum: String?
        var metadataComponents: [MetadataComponent]
    }

    /// A metadata entry a category Observation carries as a component: a quantity coded as a
    /// quantity type (a heart-rate event's threshold), or a flag coded by its own coding.
    struct MetadataComponent: Sendable, Equatable {
        var key: String
        var quantityType: String?
        var boolean: FHIRCoding?
    }

    /// A HealthKit enum: its coding system, and the case name of each raw value.
    struct ValueEnum: Sendable, Equatable {
        var system: String
        var caseNames: [Int: String]

        /// The coding for a raw value, or `nil` when the enum has no such case.
        func coding(rawValue: Int) -> FHIRCoding? {
            guard let name = caseNames[rawValue] else { return nil }
            return FHIRCoding(system: system, code: String(rawValue), display: Self.display(caseName: name))
        }

        /// HealthKitOnFHIR's display text for a case name: words split where a lower-case letter
        /// meets an upper-case one, each lower-cased unless it is all capitals (`asleepREM` is
        /// `asleep REM`, `luteinizingHormoneSurge` `luteinizing hormone surge`).
        static func display(caseName: String) -> String {
            var words: [String] = []
            var current = ""
            var previousIsLower = false
            for character in caseName {
                if previousIsLower && character.isUppercase {
                    words.append(current)
                    current = ""
                }
                current.append(character)
                previousIsLower = character.isLowercase
            }
            words.append(current)
            return words.map { $0.allSatisfy(\.isUppercase) ? $0 : $0.lowercased() }.joined(separator: " ")
        }
    }

    /// healthport's table (`FHIRCodeTable`), indexed once per process, on first use.
    static let healthKitOnFHIR = FHIRMapping(
        quantityTypes: Dictionary(FHIRCodeTable.quantityTypes, uniquingKeysWith: { first, _ in first }),
        categoryTypes: Dictionary(FHIRCodeTable.categoryTypes, uniquingKeysWith: { first, _ in first }),
        correlationTypes: Dictionary(FHIRCodeTable.correlationTypes, uniquingKeysWith: { first, _ in first }),
        workout: FHIRCodeTable.workout, electrocardiogram: FHIRCodeTable.electrocardiogram,
        categoryValueRules: Dictionary(FHIRCodeTable.categoryValueRules, uniquingKeysWith: { first, _ in first }),
        valueEnums: Dictionary(FHIRCodeTable.valueEnums, uniquingKeysWith: { first, _ in first }),
        workoutActivityValues: Dictionary(FHIRCodeTable.workoutActivityValues, uniquingKeysWith: { first, _ in first }))

    init(
        quantityTypes: [String: FHIRTypeMapping], categoryTypes: [String: FHIRTypeMapping], correlationTypes: [String: FHIRTypeMapping],
        workout: FHIRTypeMapping, electrocardiogram: ElectrocardiogramMapping, categoryValueRules: [String: CategoryValueRule],
        valueEnums: [String: ValueEnum], workoutActivityValues: [String: String]
    ) {
        self.quantityTypes = quantityTypes
        self.categoryTypes = categoryTypes
        self.correlationTypes = correlationTypes
        self.workout = workout
        self.electrocardiogram = electrocardiogram
        self.categoryValueRules = categoryValueRules
        self.valueEnums = valueEnums
        self.workoutActivityValues = workoutActivityValues
    }
}
