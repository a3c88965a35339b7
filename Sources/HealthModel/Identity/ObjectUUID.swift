/// An object's uuid: 128 bits, printed as HealthKit prints `NSUUID` (upper-case hex).
///
/// Exports carry no uuids (except `WorkoutActivity@uuid`), so healthport derives them from
/// content (`ObjectIdentity`). A value type of two words, not `Foundation.UUID`, so that the hot
/// path formats it straight into the output buffer.
public struct ObjectUUID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var high: UInt64
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    public static func < (lhs: ObjectUUID, rhs: ObjectUUID) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }

    /// The length of `formatted(into:)`: `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX`.
    public static let textLength = 36

    /// Writes the 36-byte text at `out`.
    ///
    /// Every output line starts with a uuid: digits are written from the last nibble back, with
    /// the dash positions fixed, instead of iterating over an array of the two words (about 1 %
    /// of a conversion's `perf` samples before, and an array literal on the hot path).
    @inline(__always)
    public func format(into out: UnsafeMutablePointer<UInt8>) {
        let digits: StaticString = "0123456789ABCDEF"
        let hex = digits.utf8Start
        @inline(__always) func put(_ word: UInt64, _ positions: (Int, Int, Int)) {
            // Sixteen nibbles, right to left from `positions.2`, stepping over the dash positions
            // `positions.0` and `positions.1`.
            var w = word
            var o = positions.2
            for _ in 0..<16 {
                if o == positions.0 || o == positions.1 { o -= 1 }
                out[o] = hex[Int(truncatingIfNeeded: w & 0xF)]
                w >>= 4
                o -= 1
            }
        }
        // high: XXXXXXXX-XXXX-XXXX (0…17, dashes at 8 and 13); low: XXXX-XXXXXXXXXXXX (19…35, dash at 23).
        put(low, (23, 23, 35))
        put(high, (13, 8, 17))
        out[8] = 0x2D
        out[13] = 0x2D
        out[18] = 0x2D
        out[23] = 0x2D
    }

    public var uuidString: String {
        String(unsafeUninitializedCapacity: Self.textLength) { buffer in
            format(into: buffer.baseAddress!)
            return Self.textLength
        }
    }

    public var description: String { uuidString }

    /// Parses the 36-character form, either case; `nil` otherwise.
    public init?(uuidString: String) {
        let bytes = Array(uuidString.utf8)
        guard bytes.count == 36 else { return nil }
        var words: [UInt64] = [0, 0]
        var nibble = 0
        for (i, b) in bytes.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard b == 0x2D else { return nil }
                continue
            }
            let v: UInt8
            switch b {
            case 0x30...0x39: v = b - 0x30
            case 0x41...0x46: v = b - 0x41 + 10
            case 0x61...0x66: v = b - 0x61 + 10
            default: return nil
            }
            words[nibble / 16] = (words[nibble / 16] << 4) | UInt64(v)
            nibble += 1
        }
        self.init(high: words[0], low: words[1])
    }
}
