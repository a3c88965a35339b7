/// UCUM codes for HealthKit unit strings, for quantities the table does not give a unit for
/// (fallback types, metadata, workout totals): only units whose UCUM spelling is certain; any
/// other unit is written as HealthKit's text alone (`Quantity.unit`), which FHIR allows.
///
/// HealthKit's molar units carry a molar mass (`mmol<180.15588000005408>/L`) that UCUM does not.
enum FHIRUCUM {
    static func code(forHealthKitUnit unit: String) -> String? {
        if let code = codes[unit] { return code }
        if unit.hasPrefix("mmol<"), unit.hasSuffix(">/L") { return "mmol/L" }
        return nil
    }

    private static let codes: [String: String] = [
        "count/min": "/min", "count/s": "/s", "%": "%",
        "g": "g", "kg": "kg", "mg": "mg", "mcg": "ug", "lb": "[lb_av]", "oz": "[oz_av]", "st": "[stone_av]",
        "m": "m", "cm": "cm", "mm": "mm", "km": "km", "in": "[in_i]", "ft": "[ft_i]", "yd": "[yd_i]", "mi": "[mi_i]",
        "s": "s", "ms": "ms", "min": "min", "hr": "h", "d": "d",
        "kcal": "kcal", "Cal": "kcal", "cal": "cal", "kJ": "kJ", "J": "J",
        "degC": "Cel", "degF": "[degF]", "K": "K",
        "mmHg": "mm[Hg]", "cmAq": "cm[H2O]", "atm": "atm", "kPa": "kPa",
        "L": "L", "mL": "mL", "dL": "dL", "fl_oz_us": "[foz_us]", "cup_us": "[cup_us]",
        "mg/dL": "mg/dL", "L/min": "L/min", "m/s": "m/s", "km/hr": "km/h",
        "W": "W", "V": "V", "S": "S", "Hz": "Hz", "lx": "lx", "IU": "[IU]",
    ]
}
