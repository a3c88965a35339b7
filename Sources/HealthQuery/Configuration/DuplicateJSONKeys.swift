/// Finds a key written twice in one JSON object of a configuration file (a policy).
///
/// JSON leaves duplicate keys to the reader, and readers disagree: Foundation's decoder keeps
/// one, jq and Python the last. A person who checks a policy with jq must see what healthport
/// enforces, so a policy with a key twice is refused instead of read one way or the other.
/// The text is assumed to be valid JSON already (this runs after it decoded); the scan is one
/// pass without recursion.
enum DuplicateJSONKeys {
    /// The first key repeated within one object, with its 1-based line and column.
    static func first(in bytes: [UInt8]) -> (key: String, line: Int, column: Int)? {
        var containers: [(isObject: Bool, expectsKey: Bool, keys: Set<String>)] = []
        var line = 1
        var lineStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x0A:
                line += 1
                lineStart = index + 1
            case 0x7B:  // {
                containers.append((true, true, []))
            case 0x5B:  // [
                containers.append((false, false, []))
            case 0x7D, 0x5D:  // } ]
                if !containers.isEmpty { containers.removeLast() }
            case 0x2C:  // ,
                if let last = containers.indices.last, containers[last].isObject { containers[last].expectsKey = true }
            case 0x22:  // "
                let start = index
                var decoded: [UInt8] = []
                index += 1
                while index < bytes.count, bytes[index] != 0x22 {
                    if bytes[index] == 0x5C, index + 1 < bytes.count {
                        index += 1
                        switch bytes[index] {
                        case 0x6E: decoded.append(0x0A)
                        case 0x74: decoded.append(0x09)
                        case 0x72: decoded.append(0x0D)
                        case 0x62: decoded.append(0x08)
                        case 0x66: decoded.append(0x0C)
                        case 0x75:
                            // \uXXXX (a surrogate pair is two of them; kept as code units).
                            let hex = String(decoding: bytes[min(index + 1, bytes.count)..<min(index + 5, bytes.count)], as: UTF8.self)
                            if let unit = UInt32(hex, radix: 16) {
                                if let scalar = Unicode.Scalar(unit) {
                                    decoded.append(contentsOf: Array(String(Character(scalar)).utf8))
                                } else {
                                    decoded.append(contentsOf: Array("\\u\(hex)".utf8))
                                }
                            }
                            index += 4
                        default: decoded.append(bytes[index])
                        }
                    } else {
                        decoded.append(bytes[index])
                    }
                    index += 1
                }
                if let last = containers.indices.last, containers[last].isObject, containers[last].expectsKey {
                    let key = String(decoding: decoded, as: UTF8.self)
                    if !containers[last].keys.insert(key).inserted {
                        return (key, line, start - lineStart + 1)
                    }
                    containers[last].expectsKey = false
                }
            default:
                break
            }
            index += 1
        }
        return nil
    }
}
