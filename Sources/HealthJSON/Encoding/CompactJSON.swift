import Foundation

/// Embeds JSON documents received from elsewhere (FHIR resources) into healthport's one-line
/// records without interpreting them: re-serializing would reorder keys (differently on every
/// run) and respell numbers.
public enum CompactJSON {
    /// A JSON document on one line, exactly as written otherwise (key order, number spellings):
    /// whitespace outside strings and a leading byte-order mark are dropped. Nil when the
    /// document is not valid UTF-8 JSON, so nothing malformed is embedded in the output.
    public static func bytes(of data: Data) -> [UInt8]? {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard String(validating: bytes, as: UTF8.self) != nil,
            (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
        else { return nil }
        var compact: [UInt8] = []
        compact.reserveCapacity(bytes.count)
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                compact.append(byte)
            } else if byte == 0x22 {
                inString = true
                compact.append(byte)
            } else if byte != 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
                compact.append(byte)
            }
        }
        return compact
    }
}
