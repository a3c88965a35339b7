import Foundation
import HealthModel

/// A unit (HealthKit: `HKUnit`), parsed with HealthKit's unit-string grammar by healthport's
/// `HealthUnit`: `HKUnit(from: "count/min")`, `.count()`, `.meter()`, `.gramUnit(with: .kilo)`.
///
/// HealthKit raises an Objective-C exception for a unit string it cannot parse; this library
/// never crashes on one: the unit keeps its string, converts to nothing and is compatible with
/// nothing (`doubleValue(for:)` answers `nan`).
public final class HKUnit: NSObject, @unchecked Sendable {
    /// HealthKit's unit string (`count/min`, `kg`, `mL/min·kg`).
    public let unitString: String
    let unit: HealthUnit?

    /// Parses a unit string with HealthKit's grammar.
    public init(from string: String) {
        unitString = string
        unit = try? HealthUnit.cached(string)
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKUnit else { return false }
        if let unit, let otherUnit = other.unit { return unit == otherUnit }
        return unitString == other.unitString
    }

    public override var hash: Int { unitString.hashValue }
    public override var description: String { unitString }

    /// Whether values convert between the two units (same dimension).
    func isCompatible(with other: HKUnit) -> Bool {
        guard let unit, let otherUnit = other.unit else { return false }
        return unit.isCompatible(with: otherUnit)
    }

    /// `self / unit`, e.g. `.count().unitDivided(by: .minute())` is `count/min`.
    public func unitDivided(by unit: HKUnit) -> HKUnit {
        HKUnit(from: "\(Self.factor(unitString))/\(Self.factor(unit.unitString))")
    }

    /// `self · unit`, e.g. `.meter().unitMultiplied(by: .meter())`.
    public func unitMultiplied(by unit: HKUnit) -> HKUnit {
        HKUnit(from: "\(Self.factor(unitString))·\(Self.factor(unit.unitString))")
    }

    /// `self^power`.
    public func unitRaised(toPower power: Int) -> HKUnit {
        HKUnit(from: "\(Self.factor(unitString))^\(power)")
    }

    private static func factor(_ text: String) -> String {
        text.contains(where: { "/.*·^".contains($0) }) ? "(\(text))" : text
    }

    // HealthKit's unit factories, each the unit of the string it names (`kilocalorie()` is `kcal`,
    // `gramUnit(with: .kilo)` is `kg`), with HealthKit's definitions.

    /// `count`.
    public class func count() -> HKUnit { HKUnit(from: "count") }
    /// `%`.
    public class func percent() -> HKUnit { HKUnit(from: "%") }
    /// `s`.
    public class func second() -> HKUnit { HKUnit(from: "s") }
    /// `min`.
    public class func minute() -> HKUnit { HKUnit(from: "min") }
    /// `hr`.
    public class func hour() -> HKUnit { HKUnit(from: "hr") }
    /// `d`.
    public class func day() -> HKUnit { HKUnit(from: "d") }
    /// `m`.
    public class func meter() -> HKUnit { HKUnit(from: "m") }
    /// The unit with a metric prefix: `"m"` prefixed.
    public class func meterUnit(with prefix: HKMetricPrefix) -> HKUnit { HKUnit(from: prefix.symbol + "m") }
    /// `mi`.
    public class func mile() -> HKUnit { HKUnit(from: "mi") }
    /// `ft`.
    public class func foot() -> HKUnit { HKUnit(from: "ft") }
    /// `in`.
    public class func inch() -> HKUnit { HKUnit(from: "in") }
    /// `yd`.
    public class func yard() -> HKUnit { HKUnit(from: "yd") }
    /// `g`.
    public class func gram() -> HKUnit { HKUnit(from: "g") }
    /// The unit with a metric prefix: `"g"` prefixed.
    public class func gramUnit(with prefix: HKMetricPrefix) -> HKUnit { HKUnit(from: prefix.symbol + "g") }
    /// `lb`.
    public class func pound() -> HKUnit { HKUnit(from: "lb") }
    /// `oz`.
    public class func ounce() -> HKUnit { HKUnit(from: "oz") }
    /// `L`.
    public class func liter() -> HKUnit { HKUnit(from: "L") }
    /// The unit with a metric prefix: `"L"` prefixed.
    public class func literUnit(with prefix: HKMetricPrefix) -> HKUnit { HKUnit(from: prefix.symbol + "L") }
    /// `kcal`.
    public class func kilocalorie() -> HKUnit { HKUnit(from: "kcal") }
    /// `Cal`.
    public class func largeCalorie() -> HKUnit { HKUnit(from: "Cal") }
    /// `J`.
    public class func joule() -> HKUnit { HKUnit(from: "J") }
    /// The unit with a metric prefix: `"J"` prefixed.
    public class func jouleUnit(with prefix: HKMetricPrefix) -> HKUnit { HKUnit(from: prefix.symbol + "J") }
    /// `degC`.
    public class func degreeCelsius() -> HKUnit { HKUnit(from: "degC") }
    /// `degF`.
    public class func degreeFahrenheit() -> HKUnit { HKUnit(from: "degF") }
    /// `mmHg`.
    public class func millimeterOfMercury() -> HKUnit { HKUnit(from: "mmHg") }
    /// `dBASPL`.
    public class func decibelAWeightedSoundPressureLevel() -> HKUnit { HKUnit(from: "dBASPL") }
}

/// A metric prefix (HealthKit: `HKMetricPrefix`).
public enum HKMetricPrefix: Int, Sendable {
    // HealthKit's raw values.
    case none = 0, pico, nano, micro, milli, centi, deci, deca, hecto, kilo, mega, giga, tera, femto

    var symbol: String {
        switch self {
        case .none: return ""
        case .femto: return "f"
        case .pico: return "p"
        case .nano: return "n"
        case .micro: return "mc"
        case .milli: return "m"
        case .centi: return "c"
        case .deci: return "d"
        case .deca: return "da"
        case .hecto: return "h"
        case .kilo: return "k"
        case .mega: return "M"
        case .giga: return "G"
        case .tera: return "T"
        }
    }
}
