import Foundation

/// Tool answers as JSON text, built from parts: health objects arrive as healthport's own JSON
/// (the codec's exact spellings of numbers, uuids and dates) and are spliced in as they are,
/// never decoded and re-encoded.
indirect enum JSONText: Sendable {
    case raw(String)
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSONText])
    /// Keys in the order given.
    case object([(String, JSONText)])

    static func rawBytes(_ bytes: [UInt8]) -> JSONText { .raw(String(decoding: bytes, as: UTF8.self)) }

    static func strings(_ values: [String]) -> JSONText { .array(values.map(JSONText.string)) }

    /// An `Encodable` value through `JSONEncoder` (keys sorted): for small, once-per-call parts.
    static func encoded<T: Encodable>(_ value: T) throws -> JSONText {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return .raw(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    var text: String {
        var out = ""
        write(into: &out)
        return out
    }

    func write(into out: inout String) {
        switch self {
        case .raw(let text): out += text
        case .string(let value): Self.quote(value, into: &out)
        case .int(let value): out += String(value)
        case .bool(let value): out += value ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                Self.quote(key, into: &out)
                out += ":"
                value.write(into: &out)
            }
            out += "}"
        }
    }

    static func quote(_ value: String, into out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
