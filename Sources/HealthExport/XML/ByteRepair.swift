/// The one definition of how healthport repairs bytes that XML 1.0 forbids (quirk Q2 of
/// docs/reference/export-format.md), shared by the pre-filter in front of libxml2 (`XMLPreFilter`) and by
/// healthport's own scanner (`ExportBodyScanner`), so that both parsers see the same document.
///
/// Every repair keeps the byte count, so offsets, lines and columns stay the file's:
/// - a control character other than tab, line feed and carriage return becomes a space;
/// - an ill-formed UTF-8 byte becomes `?`;
/// - an encoded surrogate (`ED A0…BF xx`) or U+FFFE/U+FFFF becomes U+FFFD (three bytes);
/// - a character reference to a code point XML forbids (`&#11;`) has its `&` replaced by `?`.
enum ByteRepair {
    /// What the byte at the start of a multi-byte position is, as the pre-filter judges it.
    enum MultiByte: Equatable {
        /// A well-formed character XML allows, of this many bytes: kept.
        case character(length: Int)
        /// An encoded surrogate or U+FFFE/U+FFFF: its three bytes become U+FFFD.
        case replacementCharacter
        /// Ill-formed: this one byte becomes `?`.
        case questionMark
        /// The sequence would run past the bytes available.
        case incomplete
    }

    /// Judges the UTF-8 sequence at `p[i]` (a byte of 0x80 or more), with `n` bytes available.
    @inline(__always)
    static func judge(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> MultiByte {
        let c = p[i]
        let length: Int
        switch c {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return .questionMark
        }
        if i + length > n { return .incomplete }
        let c1 = p[i + 1]
        var valid = c1 >= 0x80 && c1 <= 0xBF
        if valid {
            switch c {
            case 0xE0: valid = c1 >= 0xA0
            case 0xF0: valid = c1 >= 0x90
            case 0xF4: valid = c1 <= 0x8F
            default: break
            }
        }
        if valid && length >= 3 { valid = p[i + 2] >= 0x80 && p[i + 2] <= 0xBF }
        if valid && length == 4 { valid = p[i + 3] >= 0x80 && p[i + 3] <= 0xBF }
        guard valid else { return .questionMark }
        if length == 3 && ((c == 0xED && c1 >= 0xA0) || (c == 0xEF && c1 == 0xBF && (p[i + 2] == 0xBE || p[i + 2] == 0xBF))) {
            return .replacementCharacter
        }
        return .character(length: length)
    }

    /// A control character XML forbids (below 0x20, other than tab, line feed, carriage return).
    @inline(__always)
    static func isForbiddenControl(_ c: UInt8) -> Bool {
        c < 0x20 && c != 0x09 && c != 0x0A && c != 0x0D
    }

    /// What a character reference at `p[i]` (`&#…`) is, as the pre-filter judges it.
    enum CharacterReference: Equatable {
        /// `&#N;` or `&#xH;` with one to eight digits, to a code point XML allows; `end` is
        /// the offset after the `;`.
        case allowed(codePoint: UInt32, end: Int)
        /// Complete, to a code point XML forbids: its `&` becomes `?`.
        case forbidden
        /// Not a reference the pre-filter judges (no digits, more than eight, no `;`):
        /// libxml2 decides.
        case other
        /// The bytes end before the reference does.
        case incomplete
    }

    /// Judges `&#…` at `p[i]` (where `p[i] == '&'` and `p[i + 1] == '#'`), with `n` bytes
    /// available. Mirrors the pre-filter's arithmetic exactly, saturation included.
    @inline(__always)
    static func judgeReference(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> CharacterReference {
        var j = i + 2
        var hex = false
        if j < n && p[j] == 0x78 {
            hex = true
            j += 1
        }
        var value: UInt32 = 0
        var digits = 0
        while j < n && digits <= 8 {
            let d = p[j]
            if d == 0x3B {
                guard digits > 0 else { return .other }
                return isXMLChar(value) ? .allowed(codePoint: value, end: j + 1) : .forbidden
            }
            var v: UInt32
            if d >= 0x30 && d <= 0x39 {
                v = UInt32(d - 0x30)
            } else if hex && d >= 0x61 && d <= 0x66 {
                v = UInt32(d - 0x61 + 10)
            } else if hex && d >= 0x41 && d <= 0x46 {
                v = UInt32(d - 0x41 + 10)
            } else {
                return .other
            }
            if value < 0x0100_0000 { value = value * (hex ? 16 : 10) + v } else { v = 0 }
            digits += 1
            j += 1
        }
        return j >= n && digits <= 8 ? .incomplete : .other
    }

    /// XML 1.0's `Char` production.
    @inline(__always)
    static func isXMLChar(_ v: UInt32) -> Bool {
        switch v {
        case 0x09, 0x0A, 0x0D: return true
        case 0x20...0xD7FF: return true
        case 0xE000...0xFFFD: return true
        case 0x1_0000...0x10_FFFF: return true
        default: return false
        }
    }
}
