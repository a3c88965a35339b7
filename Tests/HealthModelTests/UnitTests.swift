import Testing
import HealthModel

@Suite struct UnitTests {
    func convert(_ value: Double, _ from: String, _ to: String) throws -> Double {
        try HealthUnit(from).convert(value, to: HealthUnit(to))
    }

    @Test(arguments: [
        (1.0, "mi", "km", 1.609344), (100.0, "Cal", "kcal", 100.0), (98.6, "degF", "degC", 37.0),
        (1.0, "kcal", "kJ", 4.184), (1.0, "lb", "kg", 0.45359237), (72.0, "count/min", "count/s", 1.2),
        (1.0, "hr", "min", 60.0), (1.0, "L", "mL", 1000.0), (1.0, "mmol<180.15588000005408>/L", "mg/dL", 18.015588000005408),
        (45.0, "mL/min·kg", "mL/(kg*min)", 45.0), (9.1945, "kcal/hr·kg", "kcal/(kg*hr)", 9.1945),
        (1000.0, "mcg", "mg", 1.0), (0.0, "degC", "K", 273.15), (1.0, "ft", "in", 12.0),
        (120.0, "mmHg", "Pa", 15998.6864898), (1.0, "d", "hr", 24.0), (2.5, "m/s", "km/hr", 9.0),
        (1.0, "cal", "Cal", 0.001), (1.0, "dL", "mL", 100.0), (180.0, "deg", "rad", Double.pi),
    ])
    func converts(value: Double, from: String, to: String, expected: Double) throws {
        let result = try convert(value, from, to)
        #expect(abs(result - expected) <= 1e-9 * max(1, abs(expected)), "\(value) \(from) = \(result) \(to)")
    }

    @Test func decibelsConvertThroughPressure() throws {
        // 94 dB SPL is 1 pascal.
        #expect(abs(try convert(94, "dBASPL", "Pa") - 1.0023) < 1e-3)
        #expect(abs(try convert(1, "Pa", "dBASPL") - 93.979) < 1e-3)
    }

    @Test(arguments: [("count/min", "kg"), ("%", "count"), ("degC", "kcal"), ("IU", "mg"), ("dBHL", "dBASPL"), ("km", "min")])
    func refusesIncompatibleUnits(from: String, to: String) throws {
        #expect(throws: UnitError.self) { try HealthUnit(from).convert(1, to: HealthUnit(to)) }
        #expect(try !HealthUnit(from).isCompatible(with: HealthUnit(to)))
    }

    @Test(arguments: ["", "kilometre", "m^", "(m", "mol<abc>/L", "km hr", "m/s/s"])
    func rejectsMalformedUnitStrings(text: String) {
        #expect(throws: UnitError.self) { try HealthUnit(text) }
    }

    /// Found by `Scripts/fuzz.sh predicate` (`Fuzz/regressions/predicate/unit-nested-parentheses`):
    /// a unit of thousands of `(` recursed until the stack overflowed. Units come from exports
    /// and predicates, both from strangers; nesting is bounded, one level past the bound is
    /// refused, and the bound itself still parses.
    @Test func boundsTheNestingOfParentheses() throws {
        let limit = HealthUnit.maximumNesting
        let deepest = String(repeating: "(", count: limit) + "km" + String(repeating: ")", count: limit) + "/hr"
        #expect(abs(try convert(1, deepest, "m/s") - 1000.0 / 3600.0) < 1e-12)
        let tooDeep = String(repeating: "(", count: limit + 1) + "km" + String(repeating: ")", count: limit + 1)
        #expect(throws: UnitError.self) { try HealthUnit(tooDeep) }
        #expect(throws: UnitError.self) { try HealthUnit(String(repeating: "(", count: 200_000) + "m") }
    }

    /// Every unit string seen in exports parses to the right unit: one of it, converted to
    /// another unit of its dimension, is the value its definition gives (written out here from
    /// the definitions: 1 mi = 1609.344 m, 1 lb = 453.59237 g, 1 kcal = 4184 J, 1 st = 14 lb,
    /// 1 US fl oz = 29.5735295625 mL, 0 dB SPL = 20 µPa, …). Parsing alone, as this test once
    /// checked, would pass for a unit read with the wrong scale or dimension.
    @Test(arguments: [
        (1.0, "count", "count", 1.0), (60.0, "count/min", "count/s", 1.0), (1.0, "count/s", "count/min", 60.0),
        (1.0, "kcal", "kJ", 4.184), (1.0, "Cal", "kcal", 1.0), (1.0, "cal", "J", 4.184), (1.0, "kJ", "J", 1000.0),
        (1.0, "km", "m", 1000.0), (1.0, "mi", "m", 1609.344), (1.0, "m", "cm", 100.0), (1.0, "cm", "mm", 10.0),
        (1.0, "mm", "m", 0.001), (1.0, "ft", "m", 0.3048), (1.0, "in", "cm", 2.54), (1.0, "yd", "ft", 3.0),
        (1.0, "kg", "g", 1000.0), (1.0, "lb", "g", 453.59237), (1.0, "g", "mg", 1000.0), (1.0, "mg", "mcg", 1000.0),
        (1.0, "oz", "g", 28.349523125), (1.0, "st", "lb", 14.0), (50.0, "%", "%", 50.0), (1.0, "ms", "s", 0.001),
        (1.0, "min", "s", 60.0), (1.0, "hr", "min", 60.0), (1.0, "s", "ms", 1000.0), (1.0, "d", "hr", 24.0),
        (1.0, "mmHg", "Pa", 133.322387415), (0.0, "dBASPL", "Pa", 2e-5), (20.0, "dBASPL", "Pa", 2e-4),
        (25.0, "dBHL", "dBHL", 25.0), (212.0, "degF", "degC", 100.0), (0.0, "degC", "K", 273.15),
        (1.0, "mL/min·kg", "L/(kg*hr)", 0.06), (1.0, "L/min", "mL/s", 1000.0 / 60.0), (1.0, "L", "mL", 1000.0),
        (1.0, "mL", "L", 0.001), (1.0, "IU", "IU", 1.0), (1.0, "mg/dL", "g/L", 0.01),
        (1.0, "mmol<180.1558800000541>/L", "mg/dL", 18.01558800000541), (1.0, "m/s", "km/hr", 3.6),
        (3.6, "km/hr", "m/s", 1.0), (1.0, "W", "J/s", 1.0), (1.0, "Hz", "count/min", 60.0), (1.0, "mcS", "S", 1e-6),
        (1.0, "kcal/hr·kg", "W/kg", 4184.0 / 3600.0), (1.0, "appleEffortScore", "appleEffortScore", 1.0),
        (1.0, "kcal/hr-kg", "kcal/(hr*kg)", 1.0), (1.0, "m^-1", "cm^-1", 0.01), (1.0, "D", "D", 1.0),
        (1.0, "pD", "pD", 1.0), (180.0, "deg", "rad", Double.pi), (1.0, "mi/hr", "m/s", 0.44704),
        (1.0, "fl_oz_us", "mL", 29.5735295625),
    ])
    func everyUnitSeenInExportsParsesToItsDefinition(value: Double, unit: String, reference: String, expected: Double) throws {
        let result = try convert(value, unit, reference)
        #expect(abs(result - expected) <= 1e-9 * max(1, abs(expected)), "\(value) \(unit) = \(result) \(reference), not \(expected)")
    }

    /// A difference of temperatures converts without the offset a temperature's conversion has:
    /// 0.5 degree Celsius of difference is 0.5 x 9/5 = 0.9 of Fahrenheit (0.5 degC is 32.9 degF),
    /// and 1 of Fahrenheit is 5/9 of Celsius. It is no temperature: converting it to one, or a
    /// temperature to it, is refused.
    @Test func temperatureDifferencesAreNotTemperatures() throws {
        #expect(abs(try convert(0.5, "delta_degC", "delta_degF") - 0.9) < 1e-12)
        #expect(abs(try convert(-0.2, "delta_degC", "delta_degF") - -0.36) < 1e-12)
        #expect(abs(try convert(1, "delta_degF", "delta_degC") - 5.0 / 9.0) < 1e-12)
        #expect(abs(try convert(0.5, "degC", "degF") - 32.9) < 1e-12)
        for temperature in ["degC", "degF", "K"] {
            #expect(try !HealthUnit("delta_degC").isCompatible(with: HealthUnit(temperature)), "\(temperature)")
            #expect(throws: UnitError.self) { try HealthUnit(temperature).convert(1, to: HealthUnit("delta_degF")) }
        }
    }

    /// The units that are their own dimension (a count, a percentage, an international unit, a
    /// hearing level, diopters and prism diopters, the effort score) are told apart: none
    /// converts to another, as none does in HealthKit.
    @Test func unitsOfTheirOwnDimensionAreToldApart() throws {
        let units = ["count", "%", "IU", "dBHL", "D", "pD", "appleEffortScore", "m^-1"]
        for a in units {
            for b in units {
                #expect(try HealthUnit(a).isCompatible(with: HealthUnit(b)) == (a == b), "\(a) and \(b)")
            }
        }
    }
}
