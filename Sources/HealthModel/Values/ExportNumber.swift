#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A number as the export printed it, with its parsed value.
///
/// Output prints `text`, never a re-formatted `Double`, so `77.8002` stays `77.8002` and a
/// workout duration keeps all 16 of its digits (no float noise, and nothing to round-trip).
/// `text` is always a valid JSON number (RFC 8259 §6): forms that are not (`+1`, `.5`, `5.`,
/// `007`) are normalized when parsed, so writers can copy it verbatim.
public struct ExportNumber: Hashable, Sendable, CustomStringConvertible {
    /// The number's text, valid as a JSON number.
    public let text: String
    /// The number, correctly rounded.
    public let value: Double

    public init(text: String, value: Double) {
        self.text = text
        self.value = value
    }

    /// Makes a number from a `Double`, printed with Swift's shortest round-tripping form.
    public init(_ value: Double) {
        self.value = value
        if value == value.rounded(), abs(value) < 1e15 {
            self.text = String(Int64(value))
        } else {
            self.text = "\(value)".replacingOccurrences(of: "e+", with: "e")
        }
    }

    public init(_ value: Int) {
        self.value = Double(value)
        self.text = String(value)
    }

    public var description: String { text }

    /// Parses a decimal number from attribute bytes; `nil` if the bytes are not one.
    ///
    /// Plain decimals of up to 15 significant digits take an exact fast path (the mantissa and
    /// the power of ten are both exact doubles, so one multiplication or division is correctly
    /// rounded); everything else goes to `strtod`, which is correctly rounded too. healthport
    /// never calls `setlocale`, so `strtod` always reads a decimal point.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> ExportNumber? {
        let n = bytes.count
        guard n > 0, n <= 64, let base = bytes.baseAddress else { return nil }
        let p = base.assumingMemoryBound(to: UInt8.self)
        var i = 0
        var negative = false
        var hadPlus = false
        if p[0] == 0x2D {
            negative = true
            i = 1
        } else if p[0] == 0x2B {
            hadPlus = true
            i = 1
        }
        let intStart = i
        var mantissa: UInt64 = 0
        var significant = 0
        var leadingZeroRun = true
        var leadingZeros = 0
        while i < n, p[i] >= 0x30, p[i] <= 0x39 {
            let d = UInt64(p[i] - 0x30)
            if leadingZeroRun && d == 0 { leadingZeros += 1 } else { leadingZeroRun = false }
            if significant < 19 { mantissa = mantissa &* 10 &+ d }
            if !leadingZeroRun { significant += 1 }
            i += 1
        }
        let intDigits = i - intStart
        var fracDigits = 0
        var hasPoint = false
        if i < n, p[i] == 0x2E {
            hasPoint = true
            i += 1
            while i < n, p[i] >= 0x30, p[i] <= 0x39 {
                let d = UInt64(p[i] - 0x30)
                if leadingZeroRun && d == 0 {
                    // zeros after the point before the first significant digit
                } else {
                    leadingZeroRun = false
                }
                if significant < 19 { mantissa = mantissa &* 10 &+ d }
                if !leadingZeroRun { significant += 1 }
                fracDigits += 1
                i += 1
            }
        }
        guard intDigits + fracDigits > 0 else { return nil }
        var exponent = 0
        var hasExponent = false
        var exponentSignPlus = false
        if i < n, p[i] == 0x65 || p[i] == 0x45 {
            hasExponent = true
            i += 1
            var expNegative = false
            if i < n, p[i] == 0x2D || p[i] == 0x2B {
                expNegative = p[i] == 0x2D
                exponentSignPlus = p[i] == 0x2B
                i += 1
            }
            let expStart = i
            while i < n, p[i] >= 0x30, p[i] <= 0x39 {
                if exponent < 100_000 { exponent = exponent * 10 + Int(p[i] - 0x30) }
                i += 1
            }
            guard i > expStart else { return nil }
            if expNegative { exponent = -exponent }
        }
        guard i == n else { return nil }

        // JSON validity of the text as written.
        let jsonValid = !hadPlus && intDigits > 0 && !(intDigits > 1 && p[intStart] == 0x30)
            && !(hasPoint && fracDigits == 0) && !exponentSignPlus
        let text: String
        if jsonValid {
            text = String(decoding: bytes, as: UTF8.self)
        } else {
            text = normalizedText(p, n, negative: negative, signLength: (negative || hadPlus) ? 1 : 0)
        }

        let value: Double
        let decimalExponent = exponent - fracDigits
        if significant <= 15 && significant + max(0, leadingZeros) <= 19 && decimalExponent >= -22
            && decimalExponent <= 22
        {
            var v = Double(mantissa)
            if decimalExponent < 0 {
                v /= powerOfTen(-decimalExponent)
            } else if decimalExponent > 0 {
                v *= powerOfTen(decimalExponent)
            }
            value = negative ? -v : v
        } else {
            value = slowParse(p, n)
        }
        guard value.isFinite else { return nil }
        _ = hasExponent
        return ExportNumber(text: text, value: value)
    }

    /// Parses a `String`; a convenience for cold paths and tests.
    public static func parse(_ text: String) -> ExportNumber? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// 10^e for 0 ≤ e ≤ 22, exactly (every such power is a double); no table, no lazy global.
    @inline(__always)
    private static func powerOfTen(_ e: Int) -> Double {
        var v = 1.0
        var i = 0
        while i < e {
            v *= 10
            i += 1
        }
        return v
    }

    private static func slowParse(_ p: UnsafePointer<UInt8>, _ n: Int) -> Double {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: n + 1) { buffer in
            for i in 0..<n { buffer[i] = CChar(bitPattern: p[i]) }
            buffer[n] = 0
            return strtod(buffer.baseAddress!, nil)
        }
    }

    /// Rewrites a number that JSON would reject into the equivalent JSON text.
    private static func normalizedText(
        _ p: UnsafePointer<UInt8>, _ n: Int, negative: Bool, signLength: Int
    ) -> String {
        var out: [UInt8] = negative ? [0x2D] : []
        var i = signLength
        var intPart: [UInt8] = []
        while i < n, p[i] >= 0x30, p[i] <= 0x39 {
            intPart.append(p[i])
            i += 1
        }
        while intPart.count > 1, intPart[0] == 0x30 { intPart.removeFirst() }
        if intPart.isEmpty { intPart = [0x30] }
        out.append(contentsOf: intPart)
        if i < n, p[i] == 0x2E {
            i += 1
            var frac: [UInt8] = []
            while i < n, p[i] >= 0x30, p[i] <= 0x39 {
                frac.append(p[i])
                i += 1
            }
            if !frac.isEmpty {
                out.append(0x2E)
                out.append(contentsOf: frac)
            }
        }
        if i < n {
            out.append(0x65)
            i += 1
            if i < n, p[i] == 0x2D {
                out.append(0x2D)
                i += 1
            } else if i < n, p[i] == 0x2B {
                i += 1
            }
            while i < n {
                out.append(p[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
