#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthJSON
import HealthModel

/// A value's conversion from the unit the export printed to the unit HealthKitOnFHIR's table
/// writes (`hkunit`): what `HKQuantity.doubleValue(for:)` does on the phone, here on text.
///
/// Most records already carry the table's unit and their text is copied as it is. Between units
/// that differ by a power of ten (`km` and `m`, `mg` and `g`), the decimal point of the exported
/// text is moved, so `0.07 km` is exactly `70 m` (a multiplication in binary gives
/// `70.00000000000001`). Other factors (`mi`, `lb`, `degF`) go through `HealthUnit` in binary
/// and print 15 significant digits, the precision a double carries, so no float noise is written.
struct FHIRUnitConversion {
    enum Method {
        case none
        /// Move the decimal point by this many places (positive: to the right).
        case decimalShift(Int)
        case binary(from: HealthUnit, to: HealthUnit)
    }

    let method: Method

    /// The conversion between two HealthKit unit strings, or `nil` when either does not parse
    /// or they measure different things (the value is then written in the exported unit).
    ///
    /// HealthKit's percent is a fraction (`0.97` is 97 %) where UCUM's `%` is hundredths, so a
    /// value written in `%` is multiplied by 100: a clinic reads `97 %` of oxygen saturation,
    /// not `0.97 %`. (HealthKitOnFHIR's table names `%` for these types and leaves the fraction:
    /// healthport differs from it here on purpose.)
    init?(from source: String, to target: String) {
        let percent = target == "%" ? 2 : 0
        if source == target {
            method = percent == 0 ? .none : .decimalShift(percent)
            return
        }
        guard let from = try? HealthUnit.cached(source), let to = try? HealthUnit.cached(target) else { return nil }
        if !from.isCompatible(with: to) {
            // An effort score is a count to HealthKit (`HKUnit.appleEffortScore()` converts to
            // `count()`); healthport's units keep it apart, so it is bridged here.
            guard Self.isEffortScoreAsCount(source, target) else { return nil }
            method = .none
            return
        }
        guard let zero = try? from.convert(0, to: to), let one = try? from.convert(1, to: to) else { return nil }
        if zero == 0, one > 0 {
            let exponent = log10(one).rounded()
            if abs(exponent) <= 12, abs(pow(10, exponent) - one) <= one * 1e-12 {
                let places = Int(exponent) + percent
                method = places == 0 ? .none : .decimalShift(places)
                return
            }
        }
        method = .binary(from: from, to: to)
    }

    private static func isEffortScoreAsCount(_ a: String, _ b: String) -> Bool {
        (a == "appleEffortScore" && b == "count") || (a == "count" && b == "appleEffortScore")
    }

    /// Appends the converted value as a JSON number (FHIR `decimal`).
    func append(_ value: ExportNumber, to out: OutputBuffer) {
        switch method {
        case .none:
            out.appendRaw(value.text)
        case .decimalShift(let places):
            if !Self.appendShifted(value.text, by: places, to: out) {
                Self.append(value.value * pow(10, Double(places)), to: out)
            }
        case .binary(let from, let to):
            Self.append((try? from.convert(value.value, to: to)) ?? value.value, to: out)
        }
    }

    /// The converted value as a number, for tests and components built off the hot path.
    func converted(_ value: ExportNumber) -> String {
        let buffer = OutputBuffer(descriptor: -1, capacity: 64)
        append(value, to: buffer)
        return String(decoding: buffer.takeBytes(), as: UTF8.self)
    }

    /// Writes a double with at most 15 significant digits, without trailing zeros: valid JSON
    /// and FHIR `decimal` (never `inf` or `nan`: those are written as 0, and cannot come from an
    /// export's finite numbers through a finite factor).
    static func append(_ value: Double, to out: OutputBuffer) {
        guard value.isFinite else {
            out.append(0x30)
            return
        }
        if value == value.rounded(), abs(value) < 1e15 {
            out.append(int: Int(value))
            return
        }
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 32) { buffer in
            let n = withVaList([value]) { vsnprintf(buffer.baseAddress!, 32, "%.15g", $0) }
            guard n > 0 else { return }
            let raw = UnsafeRawBufferPointer(start: buffer.baseAddress!, count: min(Int(n), 31))
            out.append(raw)
        }
    }

    /// Moves the decimal point of a plain decimal (`-12.345`) by `places`; `false` for text with
    /// an exponent, which the caller converts in binary instead.
    static func appendShifted(_ text: String, by places: Int, to out: OutputBuffer) -> Bool {
        var digits: [UInt8] = []
        digits.reserveCapacity(text.utf8.count + abs(places))
        var negative = false
        var point: Int? = nil
        for byte in text.utf8 {
            switch byte {
            case 0x2D where digits.isEmpty && !negative: negative = true
            case 0x2E where point == nil: point = digits.count
            case 0x30...0x39: digits.append(byte)
            default: return false
            }
        }
        guard !digits.isEmpty else { return false }
        var position = (point ?? digits.count) + places
        if position < 0 {
            digits.insert(contentsOf: repeatElement(0x30, count: -position), at: 0)
            position = 0
        }
        if position > digits.count { digits.append(contentsOf: repeatElement(0x30, count: position - digits.count)) }
        var integer = digits[0..<position].drop { $0 == 0x30 }
        var fraction = digits[position...]
        while fraction.last == 0x30 { fraction = fraction.dropLast() }
        if integer.isEmpty { integer = [0x30][...] }
        let isZero = integer.allSatisfy { $0 == 0x30 } && fraction.isEmpty
        if negative && !isZero { out.append(0x2D) }
        out.append(contentsOf: Array(integer))
        if !fraction.isEmpty {
            out.append(0x2E)
            out.append(contentsOf: Array(fraction))
        }
        return true
    }
}
