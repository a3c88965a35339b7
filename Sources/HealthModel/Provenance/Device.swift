/// The hardware that generated an object (HealthKit: `HKDevice`), parsed from the export's
/// `device` attribute.
///
/// The export prints the object's `description`:
/// `<<HKDevice: 0x282a45810>, name:Apple Watch, manufacturer:Apple, model:Watch, hardware:Watch2,4, software:4.3.1>`.
/// The hex address differs on every record, so it is dropped: identity and interning use the
/// fields. Values contain commas (`Watch2,4`) and spaces (`creation date:2024-…`), so the
/// description is split only at `, ` followed by a known key and `:`. A description that is not
/// an `HKDevice` print (third-party strings such as `Dummy device`) is kept whole in
/// `unparsedDescription`, never rejected.
public struct Device: Hashable, Sendable {
    /// The fields live in one shared, immutable box: a sample's device is copied with every
    /// sample (tens of millions of times) and nine strings would cost nine retains per copy;
    /// a box costs one. Setters copy the box first (copy-on-write), so this is still a value.
    private final class Storage: Hashable, @unchecked Sendable {
        @exclusivity(unchecked) var fields: [String?]

        init(fields: [String?]) {
            self.fields = fields
        }

        static func == (lhs: Storage, rhs: Storage) -> Bool { lhs === rhs || lhs.fields == rhs.fields }
        func hash(into hasher: inout Hasher) { hasher.combine(fields) }
    }

    private var storage: Storage

    /// Identifies this device value's shared storage. Two devices with the same token are equal
    /// (the converse need not hold); writers use it to reuse what they rendered for the last
    /// device, since the reader hands out one interned value per distinct device.
    public var storageToken: ObjectIdentifier { ObjectIdentifier(storage) }

    private enum Field: Int, CaseIterable {
        case name, manufacturer, model, hardwareVersion, firmwareVersion, softwareVersion, localIdentifier
        case udiDeviceIdentifier, creationDate, unparsedDescription
    }

    private func get(_ field: Field) -> String? { storage.fields[field.rawValue] }

    private mutating func set(_ field: Field, _ value: String?) {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(fields: storage.fields) }
        storage.fields[field.rawValue] = value
    }

    public var name: String? { get { get(.name) } set { set(.name, newValue) } }
    public var manufacturer: String? { get { get(.manufacturer) } set { set(.manufacturer, newValue) } }
    public var model: String? { get { get(.model) } set { set(.model, newValue) } }
    public var hardwareVersion: String? { get { get(.hardwareVersion) } set { set(.hardwareVersion, newValue) } }
    public var firmwareVersion: String? { get { get(.firmwareVersion) } set { set(.firmwareVersion, newValue) } }
    public var softwareVersion: String? { get { get(.softwareVersion) } set { set(.softwareVersion, newValue) } }
    public var localIdentifier: String? { get { get(.localIdentifier) } set { set(.localIdentifier, newValue) } }
    public var udiDeviceIdentifier: String? {
        get { get(.udiDeviceIdentifier) }
        set { set(.udiDeviceIdentifier, newValue) }
    }
    /// `creation date:` as printed (since about 2024); not an HKDevice property, kept as text.
    public var creationDate: String? { get { get(.creationDate) } set { set(.creationDate, newValue) } }
    /// The whole attribute when it is not an `HKDevice` description.
    public var unparsedDescription: String? {
        get { get(.unparsedDescription) }
        set { set(.unparsedDescription, newValue) }
    }

    public init(
        name: String? = nil, manufacturer: String? = nil, model: String? = nil,
        hardwareVersion: String? = nil, firmwareVersion: String? = nil,
        softwareVersion: String? = nil, localIdentifier: String? = nil,
        udiDeviceIdentifier: String? = nil, creationDate: String? = nil,
        unparsedDescription: String? = nil
    ) {
        storage = Storage(fields: [
            name, manufacturer, model, hardwareVersion, firmwareVersion, softwareVersion, localIdentifier,
            udiDeviceIdentifier, creationDate, unparsedDescription,
        ])
    }

    /// The keys an `HKDevice` description prints, in the order HealthKit prints them.
    static let knownKeys: [String] = [
        "name", "manufacturer", "model", "hardware", "firmware", "software", "localIdentifier",
        "UDIDeviceIdentifier", "creation date",
    ]

    /// The field each key of `knownKeys` prints: they are listed in `Field`'s order.
    private static let fieldsByKey = Dictionary(uniqueKeysWithValues: zip(knownKeys, Field.allCases))

    /// The field an `HKDevice` description key prints; `nil`, and nothing set, for another key.
    public subscript(descriptionKey key: String) -> String? {
        get { Self.fieldsByKey[key].flatMap { get($0) } }
        set {
            guard let field = Self.fieldsByKey[key] else { return }
            set(field, newValue)
        }
    }

    /// Parses the text after the `<<HKDevice: 0x…>` prefix, or the whole description.
    ///
    /// - Parameter description: the attribute value as exported (entities already decoded).
    public static func parse(description: String) -> Device {
        let prefix = "<<HKDevice: "
        guard description.hasPrefix(prefix), description.hasSuffix(">"),
            let close = description.firstIndex(of: ">")
        else {
            return Device(unparsedDescription: description)
        }
        // Body: ", name:…, manufacturer:…" up to the final ">".
        var body = Substring(description[description.index(after: close)...].dropLast())
        var device = Device()
        // Split at ", KEY:" for known keys only.
        var fields: [(String, Substring)] = []
        while !body.isEmpty {
            guard body.hasPrefix(", ") else {
                return Device(unparsedDescription: description)
            }
            body = body.dropFirst(2)
            guard let key = knownKeys.first(where: { body.hasPrefix($0 + ":") }) else {
                return Device(unparsedDescription: description)
            }
            body = body.dropFirst(key.count + 1)
            // The value runs to the next ", KEY:" of a known key, or to the end.
            var end = body.endIndex
            var search = body.startIndex
            while let range = body[search...].range(of: ", ") {
                let rest = body[range.upperBound...]
                if knownKeys.contains(where: { rest.hasPrefix($0 + ":") }) {
                    end = range.lowerBound
                    break
                }
                search = range.upperBound
            }
            fields.append((key, body[body.startIndex..<end]))
            body = body[end...]
        }
        for (key, value) in fields { device[descriptionKey: key] = String(value) }
        return device
    }

    /// The fields that identify a physical device across records and exports: name,
    /// manufacturer, model and hardware (docs/reference/export-format.md §4.8). Software and creation date
    /// change with updates; the address is per record.
    public var identityKey: String {
        if let raw = unparsedDescription { return raw }
        return [name, manufacturer, model, hardwareVersion].map { $0 ?? "" }.joined(separator: "\u{1F}")
    }

    /// Re-renders an `HKDevice` description in HealthKit's print form, for writing exports back.
    /// The address is a fixed placeholder: the real one was never meaningful.
    public var descriptionText: String {
        if let raw = unparsedDescription { return raw }
        var text = "<<HKDevice: 0x0>"
        for key in Self.knownKeys {
            if let value = self[descriptionKey: key] { text += ", \(key):\(value)" }
        }
        return text + ">"
    }
}
