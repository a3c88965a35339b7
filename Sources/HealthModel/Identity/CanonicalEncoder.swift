/// Appends an object's identity-relevant content to a reusable byte buffer, in a fixed,
/// versioned, unambiguous form (every field tagged and length-prefixed).
///
/// Instants are encoded without their printed offset (a trip or a DST change re-prints every
/// date with another offset; the samples did not change), numbers by their IEEE bits (so `80`
/// and `80.0` are one value), category values by raw value (so `…Asleep` and
/// `…AsleepUnspecified` are one value). See `ObjectIdentity` for what each kind contributes.
public struct CanonicalEncoder {
    /// A growable byte buffer written through a raw pointer: this runs for every object, and
    /// `Array.append` pays a uniqueness check per call.
    final class Buffer {
        @exclusivity(unchecked) var storage: UnsafeMutablePointer<UInt8>
        @exclusivity(unchecked) var capacity: Int
        @exclusivity(unchecked) var count = 0
        /// The encoding of the last device, keyed by its storage (see `Device.storageToken`).
        @exclusivity(unchecked) var cachedDeviceToken: ObjectIdentifier? = nil
        @exclusivity(unchecked) var cachedDeviceBytes: [UInt8] = []
        @exclusivity(unchecked) var cachedDevice: Device? = nil

        init(capacity: Int) {
            self.capacity = capacity
            storage = .allocate(capacity: capacity)
        }

        deinit { storage.deallocate() }

        @inline(__always)
        func reserve(_ n: Int) {
            if count + n > capacity {
                var newCapacity = capacity * 2
                while newCapacity < count + n { newCapacity *= 2 }
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
                grown.update(from: storage, count: count)
                storage.deallocate()
                storage = grown
                capacity = newCapacity
            }
        }
    }

    let buffer = Buffer(capacity: 1024)

    /// The encoded bytes so far, valid until the next mutation.
    public var encoded: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: buffer.storage, count: buffer.count) }

    /// A copy of the encoded bytes (tests and cold paths).
    public var bytes: [UInt8] { Array(encoded) }

    public init() {}

    public mutating func reset(kind: UInt8) {
        buffer.count = 0
        append(byte: ObjectIdentity.version)
        append(byte: kind)
    }

    @inline(__always)
    mutating func append(byte: UInt8) {
        buffer.reserve(1)
        buffer.storage[buffer.count] = byte
        buffer.count += 1
    }

    @inline(__always)
    mutating func append(raw: UnsafeRawBufferPointer) {
        let n = raw.count
        guard n > 0 else { return }
        buffer.reserve(n)
        UnsafeMutableRawPointer(buffer.storage + buffer.count).copyMemory(from: raw.baseAddress!, byteCount: n)
        buffer.count += n
    }

    @inline(__always)
    mutating func appendLength(_ length: Int) {
        var v = UInt64(length)
        while v >= 0x80 {
            append(byte: UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        append(byte: UInt8(v))
    }

    @inline(__always)
    public mutating func append(_ tag: UInt8, _ string: String?) {
        guard let string else { return }
        append(byte: tag)
        // Native strings lend their bytes without the copy (a retain and a release) that
        // `withUTF8` needs.
        if string.utf8.withContiguousStorageIfAvailable({ append(lengthPrefixed: UnsafeRawBufferPointer($0)) }) != nil { return }
        var s = string
        s.withUTF8 { append(lengthPrefixed: UnsafeRawBufferPointer($0)) }
    }

    @inline(__always)
    mutating func append(lengthPrefixed bytes: UnsafeRawBufferPointer) {
        appendLength(bytes.count)
        append(raw: bytes)
    }

    @inline(__always)
    public mutating func append(_ tag: UInt8, _ timestamp: ExportTimestamp?) {
        guard let timestamp else { return }
        append(byte: tag)
        appendWord(UInt64(bitPattern: timestamp.secondsSince1970))
    }

    @inline(__always)
    public mutating func append(_ tag: UInt8, _ number: ExportNumber?) {
        guard let number else { return }
        append(byte: tag)
        appendDouble(number.value)
    }

    @inline(__always)
    public mutating func append(_ tag: UInt8, _ quantity: Quantity?) {
        guard let quantity else { return }
        append(byte: tag)
        appendDouble(quantity.value.value)
        append(tag, quantity.unit)
    }

    @inline(__always)
    public mutating func append(_ tag: UInt8, int value: Int?) {
        guard let value else { return }
        append(byte: tag)
        appendWord(UInt64(bitPattern: Int64(value)))
    }

    @inline(__always)
    public mutating func append(_ tag: UInt8, _ uuid: ObjectUUID) {
        append(byte: tag)
        appendWord(uuid.high)
        appendWord(uuid.low)
    }

    @inline(__always)
    mutating func appendDouble(_ value: Double) {
        appendWord((value == 0 ? 0.0 : value).bitPattern)
    }

    @inline(__always)
    mutating func appendWord(_ word: UInt64) {
        withUnsafeBytes(of: word.bigEndian) { append(raw: $0) }
    }

    /// Metadata as a set: sorted by key then text, identical pairs once (the export prints some
    /// lists twice, quirk Q8), and humidity normalized (`8000 %` in recent exports is the same
    /// stored 80 % that older ones print as `80 %`, quirk Q13).
    public mutating func append(_ tag: UInt8, _ metadata: Metadata) {
        let entries = metadata.entries
        guard !entries.isEmpty else { return }
        append(byte: tag)
        let count = entries.count
        withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { order in
            for i in 0..<count { order[i] = i }
            if count > Self.insertionSortLimit {
                // A long list (an object can carry thousands of entries; one of 12,000 took 1.2 s
                // here): the same order, ties kept in the export's order, in n log n.
                var sorting = order  // the same memory
                sorting.sort { a, b in
                    if Self.precedes(entries[a], entries[b]) { return true }
                    return !Self.precedes(entries[b], entries[a]) && a < b
                }
            } else if count > 1 {
                // Insertion sort: metadata lists are short.
                for i in 1..<count {
                    let current = order[i]
                    var j = i - 1
                    while j >= 0 && Self.precedes(entries[current], entries[order[j]]) {
                        order[j + 1] = order[j]
                        j -= 1
                    }
                    order[j + 1] = current
                }
            }
            var previous: Int? = nil
            for i in 0..<count {
                let entry = entries[order[i]]
                if let p = previous, entries[p] == entry { continue }
                previous = order[i]
                append(0x01, entry.key)
                appendMetadataValue(key: entry.key, entry.value)
            }
        }
        append(byte: 0x00)
    }

    /// Past this many entries, metadata is sorted by `sort`, not by insertion.
    static let insertionSortLimit = 32

    static func precedes(_ a: MetadataEntry, _ b: MetadataEntry) -> Bool {
        if a.key != b.key { return a.key < b.key }
        return a.value.text < b.value.text
    }

    /// A value is encoded by the shape of its text, not by the type HealthKit gives its key: a
    /// string that reads as `number unit` (`13 Chips` under `HKFoodBrandName`) is encoded as the
    /// quantity it looks like, and one that reads as a number (an app's `12345`, a string since
    /// values are typed by key) as that number. uuids were derived this way before values were
    /// typed by key, and an object's uuid must not change when healthport learns more about its
    /// values (stores, anchors and earlier outputs hold the old ones).
    mutating func appendMetadataValue(key: String, _ value: MetadataValue) {
        switch value {
        case .string(let s):
            if let first = s.utf8.first, (first >= 0x30 && first <= 0x39) || first == 0x2D {
                switch MetadataValue.interpret(s) {
                case .quantity(let q): appendMetadataValue(key: key, .quantity(q))
                case .number(let n): append(0x03, n)
                default: append(0x02, s)
                }
            } else {
                append(0x02, s)
            }
        case .number(let n): append(0x03, n)
        case .date(let d): append(0x04, d)
        case .quantity(var q):
            if key == "HKWeatherHumidity", q.unit == "%", q.value.value > 100 {
                q.value = ExportNumber(q.value.value / 100)
            }
            append(0x05, q)
        }
    }

    public mutating func append(_ tag: UInt8, _ extensions: Extensions) {
        guard !extensions.isEmpty else { return }
        append(byte: tag)
        for attribute in extensions.attributes {
            append(0x01, attribute.name)
            append(0x02, attribute.value)
        }
        for element in extensions.elements { append(0x03, element) }
        append(byte: 0x00)
    }

    public mutating func append(_ tag: UInt8, _ element: GenericElement) {
        append(byte: tag)
        append(0x01, element.name)
        for attribute in element.attributes {
            append(0x02, attribute.name)
            append(0x03, attribute.value)
        }
        append(0x04, element.text)
        for child in element.children { append(0x05, child) }
        append(byte: 0x00)
    }

    public mutating func append(_ tag: UInt8, _ device: Device?) {
        guard let device else { return }
        let token = device.storageToken
        if buffer.cachedDeviceToken == token {
            buffer.cachedDeviceBytes.withUnsafeBytes { append(raw: $0) }
            return
        }
        let start = buffer.count
        appendDevice(tag, device)
        buffer.cachedDeviceBytes = Array(UnsafeRawBufferPointer(start: buffer.storage + start, count: buffer.count - start))
        buffer.cachedDeviceToken = token
        buffer.cachedDevice = device
    }

    private mutating func appendDevice(_ tag: UInt8, _ device: Device) {
        append(byte: tag)
        append(0x01, device.name)
        append(0x02, device.manufacturer)
        append(0x03, device.model)
        append(0x04, device.hardwareVersion)
        append(0x05, device.firmwareVersion)
        append(0x06, device.softwareVersion)
        append(0x07, device.localIdentifier)
        append(0x08, device.udiDeviceIdentifier)
        append(0x09, device.unparsedDescription)
        append(byte: 0x00)
    }

    /// The attributes every sample shares, except the uuid.
    public mutating func append(_ sample: SampleAttributes) {
        append(0x10, sample.sampleType.identifier)
        append(0x11, sample.sourceRevision.source.name)
        append(0x12, sample.sourceRevision.version)
        append(0x13, sample.device)
        append(0x14, sample.creationDate)
        append(0x15, sample.startDate)
        append(0x16, sample.endDate)
        append(0x17, sample.metadata)
        append(0x18, sample.extensions)
    }
}
