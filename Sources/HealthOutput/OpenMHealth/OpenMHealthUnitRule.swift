import HealthJSON
import HealthModel

/// How a quantity's value is written in the unit its schema allows: Open mHealth names units its
/// own way (`beats/min`, `steps`, `C`) and each schema lists the ones it takes.
///
/// A unit the schema lists is kept as exported (`lb` stays `lb`, `degF` becomes `F` with the
/// same number); any other is converted to the schema's default unit with the arithmetic FHIR's
/// output uses (`FHIRUnitConversion`: decimal shifts exactly, other factors to 15 significant
/// digits). HealthKit's percent is a fraction, so oxygen saturation's `0.97` is written `97`
/// (`%` in Open mHealth is hundredths). A unit that converts to neither is not guessed at: the
/// value is left out and counted (`OpenMHealthTally`).
struct OpenMHealthUnitRule {
    /// Exported HealthKit units written as they are, with the schema's name for each.
    let kept: [String: String]
    /// The HealthKit unit anything else is converted to, and the schema's name for it.
    let targetHealthKitUnit: String
    let targetName: String

    init(kept: [String: String] = [:], converting target: String, as name: String) {
        self.kept = kept
        targetHealthKitUnit = target
        targetName = name
    }

    /// A value ready to write: how to convert it and the unit's name in the schema.
    struct Plan {
        let conversion: FHIRUnitConversion
        let unitName: String
    }

    /// The plan for a value printed in `exportedUnit`, or `nil` when it does not convert.
    func plan(for exportedUnit: String) -> Plan? {
        if let name = kept[exportedUnit], let conversion = FHIRUnitConversion(from: exportedUnit, to: exportedUnit) {
            return Plan(conversion: conversion, unitName: name)
        }
        guard let conversion = FHIRUnitConversion(from: exportedUnit, to: targetHealthKitUnit) else { return nil }
        return Plan(conversion: conversion, unitName: targetName)
    }

    static let count = OpenMHealthUnitRule(converting: "count", as: "steps")
    static let beatsPerMinute = OpenMHealthUnitRule(converting: "count/min", as: "beats/min")
    static let breathsPerMinute = OpenMHealthUnitRule(converting: "count/min", as: "breaths/min")
    static let percent = OpenMHealthUnitRule(converting: "%", as: "%")
    static let kilocalories = OpenMHealthUnitRule(converting: "kcal", as: "kcal")
    static let millimetresOfMercury = OpenMHealthUnitRule(converting: "mmHg", as: "mmHg")
    static let mass = OpenMHealthUnitRule(
        kept: ["kg": "kg", "g": "g", "mg": "mg", "lb": "lb", "oz": "oz"], converting: "kg", as: "kg")
    static let temperature = OpenMHealthUnitRule(kept: ["degC": "C", "degF": "F", "K": "K"], converting: "degC", as: "C")
    /// HealthKit writes glucose's molar mass into its molar unit; both spellings the phone prints
    /// are millimoles of glucose per litre, which the schema takes as they are.
    static let bloodGlucose = OpenMHealthUnitRule(
        kept: ["mg/dL": "mg/dL", "mmol<180.15588000005408>/L": "mmol/L", "mmol<180.1558800000541>/L": "mmol/L"], converting: "mg/dL",
        as: "mg/dL")
    static let length = OpenMHealthUnitRule(
        kept: ["m": "m", "km": "km", "cm": "cm", "mm": "mm", "mi": "mi", "ft": "ft", "yd": "yd", "in": "in"], converting: "m", as: "m")
}
