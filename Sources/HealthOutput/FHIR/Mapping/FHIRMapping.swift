import HealthJSON

/// HealthKitOnFHIR's mapping, parsed from the vendored files (`Data/HealthKitOnFHIR/`): which
/// codes, categories and unit each HealthKit type is written with.
///
/// Parsed once per process, on first use (`healthKitOnFHIR`), from the bytes compiled into the
/// binary (`HealthKitOnFHIRTable`), about a millisecond; runs in other formats never pay it.
/// Writers keep their own per-type caches of the bytes this produces, so nothing here is looked
/// up per record.
struct FHIRMapping: Sendable {
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
    struct ElectrocardiogramMapping: Sendable {
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
    struct CategoryValueRule: Sendable {
        var valueEnum: String?
        var metadataComponents: [MetadataComponent]
    }

    /// A metadata entry a category Observation carries as a component: a quantity coded as a
    /// quantity type (a heart-rate event's threshold), or a flag coded by its own coding.
    struct MetadataComponent: Sendable {
        var key: String
        var quantityType: String?
        var boolean: FHIRCoding?
    }

    /// A HealthKit enum: its coding system, and the case name of each raw value.
    struct ValueEnum: Sendable {
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

    /// The table compiled into healthport. A table that does not parse is a build defect, which
    /// `FHIRMappingTableTests` catches before any release.
    static let healthKitOnFHIR: FHIRMapping = {
        do {
            return try FHIRMapping(
                sampleMapping: HealthKitOnFHIRTable.sampleMapping,
                categoryValueCodings: HealthKitOnFHIRTable.categoryValueCodings,
                workoutActivityTypeValues: HealthKitOnFHIRTable.workoutActivityTypeValues)
        } catch {
            fatalError("the vendored HealthKitOnFHIR table does not parse: \(error)")
        }
    }()

    /// A malformed vendored file (a defect of the table, found by the tests).
    struct TableError: Error, CustomStringConvertible {
        var description: String
    }

    init(sampleMapping: String, categoryValueCodings: String, workoutActivityTypeValues: String) throws {
        let samples = try Self.parse(sampleMapping)
        quantityTypes = try Self.types(samples["HKQuantitySamples"])
        categoryTypes = try Self.types(samples["HKCategorySamples"])
        correlationTypes = try Self.types(samples["HKCorrelations"])
        guard let workoutValue = samples["HKWorkout"], let ecg = samples["HKElectrocardiogram"] else {
            throw TableError(description: "HKWorkout or HKElectrocardiogram is missing")
        }
        workout = try Self.type(workoutValue)
        electrocardiogram = ElectrocardiogramMapping(
            type: try Self.type(ecg),
            classification: try Self.codings(ecg["classification"]?["codings"]),
            symptomsStatus: try Self.codings(ecg["symptomsStatus"]?["codings"]),
            numberOfVoltageMeasurements: try Self.type(ecg["numberOfVoltageMeasurements"]),
            samplingFrequency: try Self.type(ecg["samplingFrequency"]),
            averageHeartRate: try Self.type(ecg["averageHeartRate"]),
            voltageMeasurements: try Self.type(ecg["voltageMeasurements"]),
            voltagePrecision: Int(ecg["voltagePrecision"].flatMap(Self.number) ?? "3") ?? 3)

        let values = try Self.parse(categoryValueCodings)
        var rules: [String: CategoryValueRule] = [:]
        for (type, rule) in Self.members(values["types"]) {
            var components: [MetadataComponent] = []
            if case .array(let entries)? = rule["metadataComponents"] {
                for entry in entries {
                    guard let key = entry["key"]?.stringValue else { throw TableError(description: "\(type): a component without a key") }
                    components.append(
                        MetadataComponent(
                            key: key, quantityType: entry["quantityType"]?.stringValue,
                            boolean: try entry["boolean"].map(Self.coding)))
                }
            }
            rules[type] = CategoryValueRule(valueEnum: rule["valueEnum"]?.stringValue, metadataComponents: components)
        }
        categoryValueRules = rules
        var enums: [String: ValueEnum] = [:]
        for (name, value) in Self.members(values["enums"]) {
            guard let system = value["system"]?.stringValue, case .array(let cases)? = value["cases"] else {
                throw TableError(description: "\(name): no system or cases")
            }
            var caseNames: [Int: String] = [:]
            for entry in cases {
                guard let caseName = entry["case"]?.stringValue, let raw = entry["rawValue"].flatMap(Self.number).flatMap({ Int($0) }) else {
                    throw TableError(description: "\(name): a case without a name or raw value")
                }
                caseNames[raw] = caseName
            }
            enums[name] = ValueEnum(system: system, caseNames: caseNames)
        }
        valueEnums = enums
        var activities: [String: String] = [:]
        for (name, value) in Self.members(try Self.parse(workoutActivityTypeValues)) {
            guard let code = value.stringValue else { throw TableError(description: "\(name): not a string") }
            activities[name] = code
        }
        workoutActivityValues = activities
    }

    private static func parse(_ text: String) throws -> JSONValue {
        var text = text
        return try text.withUTF8 { try JSONParser.parse(UnsafeRawBufferPointer($0)) }
    }

    private static func members(_ value: JSONValue?) -> [(key: String, value: JSONValue)] {
        if case .object(let members)? = value { return members }
        return []
    }

    private static func number(_ value: JSONValue) -> String? {
        if case .number(let text) = value { return text }
        return nil
    }

    private static func types(_ value: JSONValue?) throws -> [String: FHIRTypeMapping] {
        var result: [String: FHIRTypeMapping] = [:]
        for (identifier, entry) in members(value) { result[identifier] = try type(entry) }
        return result
    }

    private static func type(_ value: JSONValue?) throws -> FHIRTypeMapping {
        guard let value else { throw TableError(description: "a type mapping is missing") }
        var unit: FHIRUnitMapping? = nil
        if let u = value["unit"] {
            guard let hkunit = u["hkunit"]?.stringValue, let text = u["unit"]?.stringValue else {
                throw TableError(description: "a unit without hkunit or unit")
            }
            unit = FHIRUnitMapping(healthKitUnit: hkunit, unit: text, system: u["system"]?.stringValue, code: u["code"]?.stringValue)
        }
        return FHIRTypeMapping(codings: try codings(value["codings"]), categories: try codings(value["categories"]), unit: unit)
    }

    private static func codings(_ value: JSONValue?) throws -> [FHIRCoding] {
        guard case .array(let entries)? = value else { return [] }
        return try entries.map(coding)
    }

    private static func coding(_ value: JSONValue) throws -> FHIRCoding {
        guard let system = value["system"]?.stringValue, let code = value["code"]?.stringValue else {
            throw TableError(description: "a coding without system or code")
        }
        return FHIRCoding(system: system, code: code, display: value["display"]?.stringValue)
    }
}
