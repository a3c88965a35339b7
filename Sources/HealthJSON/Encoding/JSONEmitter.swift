import HealthModel

/// Writes JSON values into an `OutputBuffer` by hand: static keys copied as they are, strings
/// escaped with a fast path, numbers copied from the export's text, dates formatted in place.
///
/// `JSONEncoder` costs about ten times more per record (style guide, "Output"); it is fine for
/// once-per-run documents, never here.
package struct JSONEmitter {
    package let out: OutputBuffer
    /// Whether the next member of the current object needs a comma.
    private var needsComma = false
    /// When set, every sample is written with its local times beside its instants
    /// (`localStartDate`, `localEndDate`, `timeZone`): an output's, never the store's bodies.
    package let localTimes: LocalTimes?

    package init(_ out: OutputBuffer, localTimes: LocalTimes? = nil) {
        self.out = out
        self.localTimes = localTimes
    }

    /// An emitter that goes on with an object already open in `out` (written there as bytes, as
    /// FHIR's cached heads are): its first member is preceded by a comma.
    package init(continuing out: OutputBuffer) {
        self.init(out)
        needsComma = true
    }

    // MARK: Structure

    package mutating func beginObject() { begin(0x7B) }

    package mutating func endObject() { end(0x7D) }

    package mutating func beginArray() { begin(0x5B) }

    package mutating func endArray() { end(0x5D) }

    /// Opens an object or an array (`{`, `[`): its first member or element takes no comma.
    @inline(__always)
    private mutating func begin(_ bracket: UInt8) {
        out.append(bracket)
        needsComma = false
    }

    /// Closes an object or an array (`}`, `]`): the container is a value, so what follows it in
    /// its own container takes a comma.
    @inline(__always)
    private mutating func end(_ bracket: UInt8) {
        out.append(bracket)
        needsComma = true
    }

    /// Writes `"key":`, preceded by a comma when needed. Keys are static ASCII.
    @inline(__always)
    package mutating func key(_ key: StaticString) {
        if needsComma { out.append(0x2C) }
        out.append(0x22)
        out.append(key)
        out.append(0x22)
        out.append(0x3A)
        needsComma = false
    }

    /// A dynamic key (metadata keys, attribute names).
    package mutating func key(string: String) {
        if needsComma { out.append(0x2C) }
        Self.appendString(string, to: out)
        out.append(0x3A)
        needsComma = false
    }

    /// Starts an array element.
    @inline(__always)
    package mutating func element() {
        if needsComma { out.append(0x2C) }
        needsComma = false
    }

    // MARK: Values

    @inline(__always)
    package mutating func string(_ value: String) {
        Self.appendString(value, to: out)
        needsComma = true
    }

    @inline(__always)
    package mutating func literal(_ value: StaticString) {
        // `true`/`false` are JSON literals, everything else a string.
        let text = value.description
        if text == "true" || text == "false" {
            out.append(value)
        } else {
            out.append(0x22)
            out.append(value)
            out.append(0x22)
        }
        needsComma = true
    }

    @inline(__always)
    package mutating func number(_ value: ExportNumber) {
        out.appendRaw(value.text)
        needsComma = true
    }

    @inline(__always)
    package mutating func int(_ value: Int) {
        out.append(int: value)
        needsComma = true
    }

    /// A value already in JSON's form (a number formatted by the caller).
    package mutating func raw(_ json: String) {
        out.appendRaw(json)
        needsComma = true
    }

    package mutating func null() {
        out.append("null")
        needsComma = true
    }

    @inline(__always)
    package mutating func date(_ value: ExportTimestamp) {
        out.append(0x22)
        out.appendISO8601(value)
        out.append(0x22)
        needsComma = true
    }

    /// A local date and time without an offset: `2024-07-01T08:30:00`.
    package mutating func localDate(_ value: ExportTimestamp) {
        out.append(0x22)
        out.appendLocalDateTime(value)
        out.append(0x22)
        needsComma = true
    }

    /// A date with hundredths of a second: `2020-12-06T11:26:02.34-08:00`.
    package mutating func date(_ value: ExportTimestamp, hundredths: Int) {
        out.append(0x22)
        out.appendISO8601(value, hundredths: hundredths)
        out.append(0x22)
        needsComma = true
    }

    @inline(__always)
    package mutating func uuid(_ value: ObjectUUID) {
        let p = out.reserve(ObjectUUID.textLength + 2)
        p[0] = 0x22
        value.format(into: p + 1)
        p[ObjectUUID.textLength + 1] = 0x22
        out.advance(by: ObjectUUID.textLength + 2)
        needsComma = true
    }

    /// A device object, reusing the bytes rendered for the previous sample's device.
    package mutating func device(_ device: Device) {
        let token = device.storageToken
        if out.cachedDeviceToken != token {
            let scratch = OutputBuffer(descriptor: -1, capacity: 512)
            var json = JSONEmitter(scratch)
            JSONObjectEncoder.write(device, to: &json)
            out.cachedDeviceJSON = Array(UnsafeRawBufferPointer(start: scratch.reserve(0) - scratch.count, count: scratch.count))
            out.cachedDeviceToken = token
            out.cachedDevice = device
        }
        out.append(contentsOf: out.cachedDeviceJSON)
        needsComma = true
    }

    package mutating func quantity(_ value: Quantity) {
        beginObject()
        key("value")
        number(value.value)
        key("unit")
        string(value.unit)
        endObject()
    }

    /// A JSON value written as given: `bytes` must be one complete, compact JSON value
    /// (see `CompactJSON`).
    package mutating func rawValue(_ bytes: [UInt8]) {
        out.append(contentsOf: bytes)
        needsComma = true
    }

    // MARK: Optional fields

    // `"key":value` only when there is a value: absent optional fields are omitted, as
    // healthport-formats(5) promises, in one place rather than a helper per writer. A member
    // that is always there is written through the same functions (its value is never `nil`),
    // so every member of every object is one call, whatever its type.

    /// `"name":value`, the value written by `write`, or nothing: what every optional field
    /// below is, so each says only how its value is written.
    @inline(__always)
    private mutating func field<Value>(_ name: StaticString, _ value: Value?, _ write: (inout JSONEmitter, Value) -> Void) {
        guard let value else { return }
        key(name)
        write(&self, value)
    }

    @inline(__always)
    package mutating func field(_ name: StaticString, _ value: String?) {
        field(name, value) { $0.string($1) }
    }

    @inline(__always)
    package mutating func field(_ name: StaticString, _ value: ExportNumber?) {
        field(name, value) { $0.number($1) }
    }

    @inline(__always)
    package mutating func field(_ name: StaticString, _ value: Quantity?) {
        field(name, value) { $0.quantity($1) }
    }

    @inline(__always)
    package mutating func field(_ name: StaticString, _ value: Int?) {
        field(name, value) { $0.int($1) }
    }

    @inline(__always)
    package mutating func field(_ name: StaticString, _ value: ExportTimestamp?) {
        field(name, value) { $0.date($1) }
    }

    /// `"name":number`, or nothing, for a name read from a table of fields
    /// (`WorkoutStatistics.figures`, `SensitivityPoint.clampingBounds`) rather than a literal.
    package mutating func field(named name: String, _ value: ExportNumber?) {
        guard let value else { return }
        key(string: name)
        number(value)
    }

    /// A Boolean HealthKit holds as one (audiogram masking): the JSON literal.
    package mutating func field(_ name: StaticString, _ value: Bool?) {
        field(name, value) { $0.literal($1 ? "true" : "false") }
    }

    /// `"name":[…]`, each element written by `write`; nothing when there are none (an empty
    /// list is omitted, as an absent field is).
    package mutating func field<Elements: Collection>(_ name: StaticString, _ elements: Elements, _ write: (inout JSONEmitter, Elements.Element) -> Void) {
        guard !elements.isEmpty else { return }
        key(name)
        beginArray()
        for element in elements {
            self.element()
            write(&self, element)
        }
        endArray()
    }

    /// `"name":{…}`, the object written by `write`, or nothing when `isEmpty` (an empty object
    /// is omitted, as an absent field is: metadata, extensions).
    package mutating func object(_ name: StaticString, omittedIf isEmpty: Bool, _ write: (inout JSONEmitter) -> Void) {
        guard !isEmpty else { return }
        key(name)
        write(&self)
    }

    /// `"name":{"attribute":"value",…}`: attributes passed through, as an object of strings;
    /// nothing when there are none.
    package mutating func field(_ name: StaticString, _ attributes: [GenericAttribute]) {
        guard !attributes.isEmpty else { return }
        key(name)
        beginObject()
        for attribute in attributes {
            key(string: attribute.name)
            string(attribute.value)
        }
        endObject()
    }

    // MARK: Escaping

    /// Whether bytes need no JSON escaping: no `"`, no `\\`, nothing below 0x20. Eight bytes at
    /// a time (SWAR), since nearly every string is clean.
    @inline(__always)
    package static func isClean(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let n = bytes.count
        guard let base = bytes.baseAddress else { return true }
        var i = 0
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        while i + 8 <= n {
            let w = (base + i).loadUnaligned(as: UInt64.self)
            let quote = w ^ (ones &* 0x22)
            let slash = w ^ (ones &* 0x5C)
            // A byte below 0x20 (bytes ≥ 0x80 are UTF-8 and never need escaping).
            let low = (w &- (ones &* 0x20)) & ~w & high
            let hasQuote = (quote &- ones) & ~quote & high
            let hasSlash = (slash &- ones) & ~slash & high
            if (low | hasQuote | hasSlash) != 0 { return false }
            i += 8
        }
        while i < n {
            let b = base.load(fromByteOffset: i, as: UInt8.self)
            if b < 0x20 || b == 0x22 || b == 0x5C { return false }
            i += 1
        }
        return true
    }

    /// Appends a JSON string (RFC 8259 §7). Scans first; a string with nothing to escape, the
    /// usual case, is copied in one piece.
    package static func appendString(_ value: String, to out: OutputBuffer) {
        // Native strings lend their bytes without the copy `withUTF8` needs (a copy is a retain
        // and a release per string written: four a record, callgrind).
        if value.utf8.withContiguousStorageIfAvailable({ appendString(utf8: $0, to: out) }) != nil { return }
        var copy = value
        copy.withUTF8 { appendString(utf8: $0, to: out) }
    }

    private static func appendString(utf8: UnsafeBufferPointer<UInt8>, to out: OutputBuffer) {
        let raw = UnsafeRawBufferPointer(utf8)
        let clean = isClean(raw)
        out.append(0x22)
        if clean {
            out.append(raw)
        } else {
            for b in utf8 {
                switch b {
                case 0x22: out.append("\\\"")
                case 0x5C: out.append("\\\\")
                case 0x0A: out.append("\\n")
                case 0x0D: out.append("\\r")
                case 0x09: out.append("\\t")
                case 0x08: out.append("\\b")
                case 0x0C: out.append("\\f")
                case 0..<0x20:
                    out.append("\\u00")
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    out.append(hex[Int(b >> 4)])
                    out.append(hex[Int(b & 0xF)])
                default: out.append(b)
                }
            }
        }
        out.append(0x22)
    }
}
