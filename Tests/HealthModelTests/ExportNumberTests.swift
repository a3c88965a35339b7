import Testing
import HealthModel

@Suite struct ExportNumberTests {
    @Test(arguments: [
        ("72", 72.0), ("77.8002", 77.8002), ("-3.5", -3.5), ("5.91532e-05", 5.91532e-05),
        ("48.74499999999999", 48.74499999999999), ("0.97", 0.97), ("1E3", 1000),
    ])
    func keepsTheTextAndParsesTheValueExactly(text: String, value: Double) throws {
        let number = try #require(ExportNumber.parse(text))
        #expect(number.text == text)
        #expect(number.value == value)
        #expect(number.value == Double(text))
    }

    @Test(arguments: [("+1", "1"), (".5", "0.5"), ("5.", "5"), ("007", "7"), ("1e+5", "1e5")])
    func normalizesTextJSONWouldReject(text: String, json: String) throws {
        let number = try #require(ExportNumber.parse(text))
        #expect(number.text == json)
    }

    @Test(arguments: ["", "abc", "1.2.3", "1e", "--1", "0x10", "nan", "inf", "1,5", " 1"])
    func rejectsWhatIsNotANumber(text: String) {
        #expect(ExportNumber.parse(text) == nil)
    }

    @Test func fastPathAgreesWithStrtodOnManyValues() throws {
        var state: UInt64 = 42
        for _ in 0..<20_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let mantissa = Int(state >> 40) % 10_000_000
            let scale = Int(state >> 20) % 8
            var text = String(mantissa)
            if scale > 0 && text.count > scale {
                text.insert(".", at: text.index(text.endIndex, offsetBy: -scale))
            }
            let number = try #require(ExportNumber.parse(text))
            #expect(number.value == Double(text)!, "\(text)")
        }
    }
}
