import Foundation

/// The recursive-descent parser behind `HealthUnit.init`.
struct UnitParser {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var depth = 0
    private let text: String

    /// The deepest nesting of parentheses a unit may have. Apple's units nest one level at most
    /// (`mg/(dL·hr)`); without a bound, a unit of thousands of `(` from a hostile export or
    /// predicate recursed until the stack overflowed (found by the predicate fuzz harness).
    static let maximumNesting = 16

    init(_ text: String) {
        self.text = text
        // Some published exports print `kcal/hr-kg` with an ASCII hyphen for the middle dot; a
        // hyphen that does not follow `^` is a product sign.
        var scalars = Array(text.unicodeScalars)
        for i in scalars.indices where scalars[i] == "-" && i > 0 && scalars[i - 1] != "^" {
            scalars[i] = "·"
        }
        self.scalars = scalars
    }

    struct Parsed {
        var scale: Double
        var dimension: Dimension
        var kind: HealthUnit.Kind
    }

    mutating func parse() throws -> Parsed {
        guard !scalars.isEmpty else { throw UnitError(message: "empty unit string", position: 0) }
        // Affine and logarithmic units stand alone.
        if let special = Self.standalone[text] { return special }
        var result = try product()
        if peek == "/" {
            index += 1
            let denominator = try product()
            result.scale /= denominator.scale
            result.dimension = result.dimension * denominator.dimension.power(-1)
        }
        guard index == scalars.count else {
            throw UnitError(message: "unexpected '\(scalars[index])' in unit '\(text)'", position: index)
        }
        return result
    }

    private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private mutating func product() throws -> Parsed {
        var result = try factor()
        while let c = peek, c == "." || c == "*" || c == "·" {
            index += 1
            let next = try factor()
            result.scale *= next.scale
            result.dimension = result.dimension * next.dimension
        }
        return result
    }

    private mutating func factor() throws -> Parsed {
        var result: Parsed
        if peek == "(" {
            guard depth < Self.maximumNesting else {
                throw UnitError(message: "parentheses nested deeper than \(Self.maximumNesting) in a unit", position: index)
            }
            index += 1
            depth += 1
            result = try product()
            depth -= 1
            guard peek == ")" else { throw UnitError(message: "missing ')' in unit '\(text)'", position: index) }
            index += 1
        } else {
            result = try atom()
        }
        if peek == "^" {
            index += 1
            var negative = false
            if peek == "-" {
                negative = true
                index += 1
            }
            let start = index
            var exponent = 0
            while let c = peek, c.properties.numericType != nil, let d = Int(String(c)) {
                exponent = exponent * 10 + d
                index += 1
            }
            guard index > start, exponent < 100 else {
                throw UnitError(message: "expected an integer exponent in unit '\(text)'", position: index)
            }
            if negative { exponent = -exponent }
            result.scale = pow(result.scale, Double(exponent))
            result.dimension = result.dimension.power(exponent)
        }
        return result
    }

    private mutating func atom() throws -> Parsed {
        let start = index
        while let c = peek, !["/", ".", "*", "·", "^", "(", ")"].contains(c) {
            if c == "<" {
                // A molar mass, mol<180.15588000005408>: its "." is not a product sign.
                while let d = peek, d != ">" { index += 1 }
                guard peek == ">" else { throw UnitError(message: "missing '>' in unit '\(text)'", position: index) }
            }
            index += 1
        }
        let name = String(String.UnicodeScalarView(scalars[start..<index]))
        guard !name.isEmpty else {
            throw UnitError(message: "expected a unit at position \(start + 1) in '\(text)'", position: start)
        }
        if let unit = Self.nonSI[name] { return Parsed(scale: unit.0, dimension: unit.1, kind: .linear) }
        for (prefix, factor) in Self.prefixes where name.hasPrefix(prefix) || prefix.isEmpty {
            let rest = String(name.dropFirst(prefix.count))
            if let si = Self.si[rest] {
                return Parsed(scale: factor * si.0, dimension: si.1, kind: .linear)
            }
            if rest.hasPrefix("mol<"), rest.hasSuffix(">") {
                let massText = rest.dropFirst(4).dropLast()
                guard let molarMass = Double(massText), molarMass > 0 else {
                    throw UnitError(message: "invalid molar mass in unit '\(text)'", position: start)
                }
                // A mole of a substance of molar mass M weighs M grams.
                return Parsed(scale: factor * molarMass, dimension: .mass, kind: .linear)
            }
        }
        throw UnitError(message: "unknown unit '\(name)' in '\(text)'", position: start)
    }

    /// Prefixes, longest first so that `mc` (micro) wins over `m`; "" means no prefix.
    static let prefixes: [(String, Double)] = [
        ("da", 1e1), ("mc", 1e-6), ("p", 1e-12), ("n", 1e-9), ("m", 1e-3), ("c", 1e-2), ("d", 1e-1),
        ("h", 1e2), ("k", 1e3), ("M", 1e6), ("G", 1e9), ("T", 1e12), ("f", 1e-15), ("", 1),
    ]

    /// SI units that take a prefix, as (scale to base, dimension). Mass is in grams.
    static let si: [String: (Double, Dimension)] = [
        "g": (1, .mass), "m": (1, .length), "L": (1e-3, .volume), "l": (1e-3, .volume),
        "Pa": (1000, .pressure), "s": (1, .time), "J": (1000, .energy), "K": (1, .temperature),
        "S": (1, .conductance), "Hz": (1, Dimension.time.power(-1)), "V": (1, .voltage),
        "W": (1000, .wattDimension), "rad": (1, .angle), "lx": (1, .illuminance),
    ]

    /// Units that take no prefix.
    static let nonSI: [String: (Double, Dimension)] = [
        "oz": (28.349523125, .mass), "lb": (453.59237, .mass), "st": (6350.29318, .mass),
        "in": (0.0254, .length), "ft": (0.3048, .length), "yd": (0.9144, .length), "mi": (1609.344, .length),
        "mmHg": (133322.387415, .pressure), "cmAq": (98066.5, .pressure), "atm": (101_325_000, .pressure),
        "inHg": (3_386_388.16, .pressure),
        "fl_oz_us": (0.0295735295625e-3, .volume), "fl_oz_imp": (0.0284130625e-3, .volume),
        "pt_us": (0.473176473e-3, .volume), "pt_imp": (0.56826125e-3, .volume),
        "cup_us": (0.2365882365e-3, .volume), "cup_imp": (0.284130625e-3, .volume),
        "min": (60, .time), "hr": (3600, .time), "d": (86_400, .time),
        "cal": (4184, .energy), "Cal": (4_184_000, .energy), "kcal": (4_184_000, .energy),
        "IU": (1, .internationalUnit), "count": (1, .none), "%": (1, .percent), "dBHL": (1, .hearingLevel),
        "D": (1, .diopter), "pD": (1, .prismDiopter), "deg": (Double.pi / 180, .angle),
        "appleEffortScore": (1, .effortScore),
        // A difference of temperatures, not a temperature (healthport's, for Health Connect's
        // skin temperature deltas; HealthKit has none): a degree Celsius of difference is 9/5 of
        // a degree Fahrenheit, with no offset. Named as the Pint library names them.
        "delta_degC": (1, .temperatureDifference), "delta_degF": (5.0 / 9.0, .temperatureDifference),
    ]

    /// Units that only stand alone.
    static let standalone: [String: Parsed] = [
        "degC": Parsed(scale: 1, dimension: .temperature, kind: .affine(offset: 273.15)),
        "degF": Parsed(scale: 5.0 / 9.0, dimension: .temperature, kind: .affine(offset: 459.67 * 5.0 / 9.0)),
        "dBASPL": Parsed(scale: 1, dimension: .pressure, kind: .decibel(reference: 2e-5 * 1000)),
    ]
}
