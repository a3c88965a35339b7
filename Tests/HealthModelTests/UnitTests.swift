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

    @Test func everyUnitSeenInExportsParses() throws {
        for text in [
            "count", "count/min", "count/s", "kcal", "Cal", "cal", "kJ", "km", "mi", "m", "cm", "mm", "ft", "in", "yd",
            "kg", "lb", "g", "mg", "mcg", "oz", "st", "%", "ms", "min", "hr", "s", "d", "mmHg", "dBASPL", "dBHL",
            "degC", "degF", "mL/min·kg", "L/min", "L", "mL", "IU", "mg/dL", "mmol<180.1558800000541>/L", "m/s",
            "km/hr", "W", "Hz", "mcS", "kcal/hr·kg", "appleEffortScore", "kcal/hr-kg", "m^-1",
            "D", "pD", "deg", "mi/hr", "fl_oz_us",
        ] {
            _ = try HealthUnit(text)
        }
    }
}
