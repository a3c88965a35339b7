import Foundation

/// A HealthKit unit (`HKUnit`), parsed from its unit string with HealthKit's grammar, so that
/// quantities compare and convert across units: `1 mi` = `1.609344 km`, `100 Cal` = `100 kcal`,
/// `98.6 degF` = `37 degC`, `mmol<180.15588000005408>/L` ↔ `mg/dL`.
///
/// Grammar (docs/reference/healthkit.md §3.1): `product [ "/" product ]`, where a product is factors
/// joined by `.`, `*` or `·`, a factor is an atom or a parenthesized product, optionally `^int`.
/// Everything after the single `/` is the denominator (`mL/min·kg` is mL/(min·kg)). An atom is
/// a non-SI unit (`min`, `mi`, `kcal`, `degF`, `count`, `%`, …) or an SI unit with an optional
/// prefix (`mg`, `kJ`, `dL`, `mcS`, `mmol<M>`).
///
/// A unit is a scale to its dimension's base unit (grams, metres, seconds, kelvin, …) and a
/// dimension vector; two units are compatible when their dimensions are equal. Temperatures in
/// `degC`/`degF` are affine and `dBASPL` is logarithmic: both only standalone, as in HealthKit.
/// A difference of temperatures (`delta_degC`, `delta_degF`: healthport's, HealthKit has none)
/// is a dimension of its own, linear: 0.5 `delta_degC` is 0.9 `delta_degF`, where 0.5 `degC`
/// is 32.9 `degF`; converting one kind to the other is refused rather than done with an offset
/// that means nothing for a difference.
/// Lengths and masses use the exact international definitions (1 mi = 1609.344 m,
/// 1 lb = 453.59237 g), of which HealthKit's header prints rounded values.
public struct HealthUnit: Hashable, Sendable, CustomStringConvertible {
    /// The unit string as given.
    public let text: String
    /// Multiplier to the base unit of the dimension.
    let scale: Double
    let dimension: Dimension
    let kind: Kind

    enum Kind: Hashable, Sendable {
        case linear
        /// base = value × scale + offset (kelvin).
        case affine(offset: Double)
        /// base = reference × 10^(value / 20) (pascal).
        case decibel(reference: Double)
    }

    public var description: String { text }

    /// The deepest nesting of parentheses a unit string may have; deeper is a `UnitError`.
    public static var maximumNesting: Int { UnitParser.maximumNesting }

    /// Parses a unit string; throws `UnitError` naming the offending part.
    public init(_ text: String) throws {
        var parser = UnitParser(text)
        let parsed = try parser.parse()
        self.text = text
        self.scale = parsed.scale
        self.dimension = parsed.dimension
        self.kind = parsed.kind
    }

    init(text: String, scale: Double, dimension: Dimension, kind: Kind = .linear) {
        self.text = text
        self.scale = scale
        self.dimension = dimension
        self.kind = kind
    }

    public static func == (lhs: HealthUnit, rhs: HealthUnit) -> Bool {
        lhs.scale == rhs.scale && lhs.dimension == rhs.dimension && lhs.kind == rhs.kind
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(scale)
        hasher.combine(dimension)
    }

    /// Whether values convert between the two units (HealthKit: `is(compatibleWith:)`).
    public func isCompatible(with other: HealthUnit) -> Bool {
        dimension == other.dimension
    }

    /// A value in this unit expressed in the dimension's base unit.
    public func toBase(_ value: Double) -> Double {
        switch kind {
        case .linear: return value * scale
        case .affine(let offset): return value * scale + offset
        case .decibel(let reference): return reference * pow(10, value / 20)
        }
    }

    /// A value in the dimension's base unit expressed in this unit.
    public func fromBase(_ base: Double) -> Double {
        switch kind {
        case .linear: return base / scale
        case .affine(let offset): return (base - offset) / scale
        case .decibel(let reference): return 20 * log10(base / reference)
        }
    }

    /// Converts a value from this unit to `target`.
    ///
    /// - Throws: `UnitError.incompatible` when the dimensions differ.
    public func convert(_ value: Double, to target: HealthUnit) throws -> Double {
        guard isCompatible(with: target) else {
            throw UnitError(message: "'\(text)' and '\(target.text)' are not compatible units", position: nil)
        }
        if self == target { return value }
        return target.fromBase(toBase(value))
    }

    /// Parses a unit string, remembering every distinct string parsed (units repeat millions of
    /// times in an export, with a handful of distinct strings).
    public static func cached(_ text: String) throws -> HealthUnit {
        try UnitCache.shared.unit(text)
    }
}

/// A unit string that does not parse, or units that do not convert.
public struct UnitError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// 0-based character offset in the unit string, when known.
    public var position: Int?

    public var description: String { message }
}

/// The exponents of a unit over healthport's base dimensions. Opaque HealthKit units (`IU`,
/// `dBHL`, `D`, `pD`, `appleEffortScore`, `%`, siemens, volts, lux) are dimensions of their own,
/// so each converts only to itself (and its prefixed forms).
struct Dimension: Hashable, Sendable {
    static let names = [
        "mass", "length", "time", "temperature", "angle", "percent", "conductance", "voltage", "illuminance",
        "internationalUnit", "hearingLevel", "diopter", "prismDiopter", "effortScore", "temperatureDifference",
    ]
    var exponents: [Int8]

    init(_ pairs: [(Int, Int8)] = []) {
        exponents = Array(repeating: 0, count: Self.names.count)
        for (index, exponent) in pairs { exponents[index] = exponent }
    }

    static let none = Dimension()
    static func base(_ index: Int) -> Dimension { Dimension([(index, 1)]) }

    static func * (lhs: Dimension, rhs: Dimension) -> Dimension {
        var result = lhs
        for i in result.exponents.indices { result.exponents[i] += rhs.exponents[i] }
        return result
    }

    func power(_ n: Int) -> Dimension {
        var result = self
        for i in result.exponents.indices { result.exponents[i] = Int8(clamping: Int(result.exponents[i]) * n) }
        return result
    }

    static let mass = base(0)
    static let length = base(1)
    static let time = base(2)
    static let temperature = base(3)
    static let angle = base(4)
    static let percent = base(5)
    static let conductance = base(6)
    static let voltage = base(7)
    static let illuminance = base(8)
    static let internationalUnit = base(9)
    static let hearingLevel = base(10)
    static let diopter = base(11)
    static let prismDiopter = base(12)
    static let effortScore = base(13)
    /// A difference of two temperatures: never a temperature, which is affine.
    static let temperatureDifference = base(14)
    /// kg·m²·s⁻² in grams: 1 J = 1000 g·m²·s⁻².
    static let energy = mass * length.power(2) * time.power(-2)
    static let pressure = mass * length.power(-1) * time.power(-2)
    static let wattDimension = energy * time.power(-1)
    static let volume = length.power(3)
}

/// Parsed units by string, shared and locked: parsing is cheap, but exports repeat a handful of
/// strings millions of times.
final class UnitCache: @unchecked Sendable {
    static let shared = UnitCache()
    private let lock = NSLock()
    private var units: [String: HealthUnit] = [:]

    func unit(_ text: String) throws -> HealthUnit {
        lock.lock()
        if let unit = units[text] {
            lock.unlock()
            return unit
        }
        lock.unlock()
        let unit = try HealthUnit(text)
        lock.lock()
        if units.count < 10_000 { units[text] = unit }
        lock.unlock()
        return unit
    }
}
