import Foundation

/// The id of a JSON-RPC request as the client wrote it, read from the message's bytes: what
/// an error answer echoes so that the client's pending request ends (`OverlongMessageReply`,
/// `MessageScreen`).
///
/// Read from the bytes, not from a parsed value, because the answer must echo the id exactly
/// as written (a parsed `12` and `12.0` are one number) and because the message may be cut
/// (an overlong one's first bytes only).
enum RequestIdentifier {
    /// The longest id echoed back; a longer one is answered with `null`.
    static let maximumIdentifierLength = 256

    /// The JSON text of the top-level `id` member of the object that `prefix` begins, when it
    /// is a string or an integer of at most 18 digits written in full within `prefix`; `nil`
    /// for anything else (not an object, a batch, an id after the prefix's end, a malformed
    /// prefix, a number with a fraction or an exponent or too many digits to be an integer
    /// every client reads: MCP's ids are strings or integers, JSON-RPC's numbers "SHOULD NOT
    /// contain fractional parts", and `-1.5e3333` is JSON no client can read back).
    ///
    /// Nested values are skipped by bracket depth, outside strings, so an `id` inside `params`
    /// is never taken for the request's.
    ///
    /// - Complexity: O(`prefix.count`).
    static func text(in prefix: Data) -> String? {
        var scanner = Scanner(bytes: [UInt8](prefix))
        return scanner.topLevelIdentifier()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func topLevelIdentifier() -> String? {
            skipWhitespace()
            guard take(UInt8(ascii: "{")) else { return nil }
            while true {
                skipWhitespace()
                guard let keyStart = scanString() else { return nil }
                let isIdentifier = bytes[keyStart..<index].elementsEqual(#""id""#.utf8)
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                let valueStart = index
                if isIdentifier {
                    guard peek() == UInt8(ascii: "\"") ? scanString() != nil : scanInteger() else { return nil }
                    let valueEnd = index
                    // The value must be complete: a separator follows it.
                    skipWhitespace()
                    guard let next = peek(), next == UInt8(ascii: ",") || next == UInt8(ascii: "}") else { return nil }
                    guard valueEnd - valueStart <= maximumIdentifierLength else { return nil }
                    return String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self)
                }
                guard skipValue() else { return nil }
                skipWhitespace()
                guard let separator = peek() else { return nil }
                index += 1
                if separator == UInt8(ascii: "}") { return nil }
                if separator != UInt8(ascii: ",") { return nil }
            }
        }

        func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek() == byte else { return false }
            index += 1
            return true
        }

        static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }

        mutating func skipWhitespace() {
            while let byte = peek(), Self.isWhitespace(byte) { index += 1 }
        }

        /// A JSON string, checked (escapes, no control characters) so that it can be echoed:
        /// its start, with `index` past its closing quote.
        mutating func scanString() -> Int? {
            let start = index
            guard take(UInt8(ascii: "\"")) else { return nil }
            while let byte = peek() {
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return start
                case UInt8(ascii: "\\"):
                    guard let escaped = peek() else { return nil }
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        continue
                    case UInt8(ascii: "u"):
                        for _ in 0..<4 {
                            guard let digit = peek(), Self.isHexDigit(digit) else { return nil }
                            index += 1
                        }
                    default:
                        return nil
                    }
                case 0..<0x20:
                    return nil
                default:
                    continue
                }
            }
            return nil
        }

        static func isHexDigit(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
        }

        /// A JSON integer of at most 18 digits (`-?(0|[1-9][0-9]{0,17})`), `index` past it;
        /// `false` for any other number (a fraction, an exponent, more digits), which the
        /// separator check after it would otherwise take for an integer cut short.
        mutating func scanInteger() -> Bool {
            _ = take(UInt8(ascii: "-"))
            let start = index
            if !take(UInt8(ascii: "0")) {
                guard let first = peek(), (0x31...0x39).contains(first) else { return false }
                _ = scanDigits()
            }
            guard index - start <= 18 else { return false }
            if let next = peek(), next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") || (0x30...0x39).contains(next) {
                return false
            }
            return true
        }

        mutating func scanDigits() -> Bool {
            let start = index
            while let byte = peek(), (0x30...0x39).contains(byte) { index += 1 }
            return index > start
        }

        /// Any value, not checked: strings are skipped whole, brackets counted outside them,
        /// and a scalar runs to the next `,` or `}` at the top level.
        mutating func skipValue() -> Bool {
            var depth = 0
            while let byte = peek() {
                switch byte {
                case UInt8(ascii: "\""):
                    guard scanString() != nil else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return true }
                    depth -= 1
                case UInt8(ascii: ","):
                    if depth == 0 { return true }
                default:
                    break
                }
                index += 1
            }
            return false
        }
    }
}
