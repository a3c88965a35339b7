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
    @inline(__always)
    public func format(into out: UnsafeMutablePointer<UInt8>) {
        var o = 0
        for (word, startNibble) in [(high, 0), (low, 16)] {
            for nibble in 0..<16 {
                let position = startNibble + nibble
                if position == 8 || position == 12 || position == 16 || position == 20 {
                    out[o] = 0x2D
                    o += 1
                }
                let shift = UInt64(60 - nibble * 4)
                let digit = UInt8(truncatingIfNeeded: (word >> shift) & 0xF)
                out[o] = digit < 10 ? 0x30 + digit : 0x37 + digit
                o += 1
            }
        }
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
