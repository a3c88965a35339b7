/// A metadata value (HealthKit: `String`, `NSNumber`, `Date` or `HKQuantity`).
///
/// The export prints every value as text and the type is lost (docs/reference/export-format.md §4.7). It is
/// recovered by one rule that gives a key the same type whatever its value: a key HealthKit
/// stores as an `HKQuantity` (``QuantityMetadataKeys``) holds a quantity when the text is
/// `number unit`; a key it stores as an `NSNumber` (``NumberMetadataKeys``) a number when the
/// text is one; every other key, HealthKit's string keys and every key an app chose, the string
/// printed (`1E10` and a 19-digit identifier stay strings), except that the metadata date form
/// becomes a date (written as an ISO 8601 string, so still a JSON string). Every case keeps
/// enough to print the original text again (`text`), except weather humidity, whose ×100
/// printing in recent exports is undone (``held(under:)``).
public enum MetadataValue: Hashable, Sendable {
    case string(String)
    case number(ExportNumber)
    case date(ExportTimestamp)
    case quantity(Quantity)

    /// The value as the export printed it.
    public var text: String {
        switch self {
        case .string(let s): return s
        case .number(let n): return n.text
        case .date(let d): return d.exportText
        case .quantity(let q): return q.text
        }
    }

    /// Recovers the value HealthKit holds under `key` from exported text.
    public static func interpret(_ text: String, key: String) -> MetadataValue {
        interpret(text).held(under: key)
    }

    /// Recovers the value HealthKit holds under `key` from bytes, with `text` the same bytes as
    /// a `String`.
    public static func interpret(bytes: UnsafeRawBufferPointer, text: String, key: String) -> MetadataValue {
        let value = interpret(bytes: bytes, text: text)
        switch value {
        case .quantity: return value.held(under: key)
        case .number: return NumberMetadataKeys.holdsNumber(key) ? value : .string(text)
        case .string, .date: return value
        }
    }

    /// The value as HealthKit holds it under `key`: a quantity only for the keys whose values
    /// HealthKit stores as `HKQuantity` (a food's `HKFoodBrandName` of `13 Chips` is a string),
    /// a number only for the keys it stores as `NSNumber` (an app's `1E10` is a string), and
    /// weather humidity in percent as stored. Exports since 2025 print humidity a hundred
    /// times too large (`6400 %` for the 64 % that older exports print as `64 %`, quirk Q13); a
    /// humidity can never exceed 100 %, so a larger one is divided by a hundred.
    public func held(under key: String) -> MetadataValue {
        if case .number(let number) = self {
            return NumberMetadataKeys.holdsNumber(key) ? self : .string(number.text)
        }
        guard case .quantity(var quantity) = self else { return self }
        guard QuantityMetadataKeys.holdsQuantity(key) else {
            if quantity.unit.isEmpty { return MetadataValue.number(quantity.value).held(under: key) }
            return .string(quantity.text)
        }
        if QuantityMetadataKeys.isHumidity(key), quantity.unit == "%", quantity.value.value > 100 {
            quantity.value = ExportNumber(quantity.value.value / 100)
        }
        return .quantity(quantity)
    }

    /// Recovers a typed value from exported text by its shape alone, whatever the key: a
    /// `number unit` text is a quantity here. Identity uses this shape (see
    /// `CanonicalEncoder.appendMetadataValue`); values use ``interpret(_:key:)``.
    public static func interpret(_ text: String) -> MetadataValue {
        var copy = text
        return copy.withUTF8 { interpret(bytes: UnsafeRawBufferPointer($0), text: text) }
    }

    /// Recovers a typed value from bytes by their shape alone, with `text` the same bytes as a
    /// `String`.
    public static func interpret(bytes: UnsafeRawBufferPointer, text: String) -> MetadataValue {
        let n = bytes.count
        guard n > 0 else { return .string(text) }
        let first = bytes[0]
        let startsNumeric = (first >= 0x30 && first <= 0x39) || first == 0x2D
        guard startsNumeric else { return .string(text) }
        if n == 25, let date = ExportTimestamp.parse(bytes), bytes[10] == 0x20 {
            return .date(date)
        }
        // Numbers: only JSON-shaped ones, so that a number's text is the export's text exactly.
        if let number = ExportNumber.parse(bytes), number.text.utf8.count == n, first != 0x2B {
            return .number(number)
        }
        // Quantity: "<number> <unit>" with a single space and a plausible unit string.
        if let space = bytes.firstIndex(of: 0x20), space > 0, space < n - 1 {
            let numberBytes = UnsafeRawBufferPointer(rebasing: bytes[0..<space])
            let unitBytes = UnsafeRawBufferPointer(rebasing: bytes[(space + 1)...])
            if let number = ExportNumber.parse(numberBytes), number.text.utf8.count == space,
                isPlausibleUnit(unitBytes)
            {
                return .quantity(Quantity(value: number, unit: String(decoding: unitBytes, as: UTF8.self)))
            }
        }
        return .string(text)
    }

    /// A unit string starts with a letter, `%` or `(` and holds no spaces. The unit grammar
    /// proper (prefixes, `/`, `·`, `^`) is checked where units are converted.
    static func isPlausibleUnit(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let first = bytes.first else { return false }
        let isLetter = (first >= 0x41 && first <= 0x5A) || (first >= 0x61 && first <= 0x7A)
        guard isLetter || first == 0x25 || first == 0x28 else { return false }
        for b in bytes where b == 0x20 || b == 0x2C || b < 0x20 { return false }
        return bytes.count <= 64
    }
}

/// One metadata key and value.
public struct MetadataEntry: Hashable, Sendable {
    /// The key as stored in HealthKit: `HKTimeZone` for `HKMetadataKeyTimeZone`, or any string a
    /// third-party app chose (`Health Mate App Version`).
    public var key: String
    public var value: MetadataValue

    public init(key: String, value: MetadataValue) {
        self.key = key
        self.value = value
    }
}

/// An object's metadata, in the export's order.
///
/// HealthKit metadata is a dictionary; the export can print a key twice (workout metadata is
/// printed twice, quirk Q8). Identical pairs are merged when the object is built; the same key
/// with different values keeps both entries (and the reader warns), because dropping one would
/// lose data.
public struct Metadata: Hashable, Sendable {
    public var entries: [MetadataEntry]

    public init(_ entries: [MetadataEntry] = []) {
        self.entries = entries
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// The first value for a key.
    public subscript(key: String) -> MetadataValue? {
        entries.first(where: { $0.key == key })?.value
    }

    /// The keys that appear more than once with different values.
    public var conflictingKeys: [String] {
        var seen: [String: MetadataValue] = [:]
        var conflicts: [String] = []
        for entry in entries {
            if let previous = seen[entry.key] {
                if previous != entry.value, !conflicts.contains(entry.key) { conflicts.append(entry.key) }
            } else {
                seen[entry.key] = entry.value
            }
        }
        return conflicts
    }
}
