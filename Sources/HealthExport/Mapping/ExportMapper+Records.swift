import Foundation
import HealthModel

/// Records, the hot path: one `Record` element and its metadata and beat-to-beat entries into
/// a quantity or category sample, from attribute bytes, with interned strings.
extension ExportMapper {
    func startRecord(_ attributes: AttributeView, _ parser: any ElementEventSource) {
        record.reset()
        recordOpen = true
        var typeBytes = UnsafeRawBufferPointer(start: nil, count: 0)
        var valueBytes: UnsafeRawBufferPointer? = nil
        var unitBytes: UnsafeRawBufferPointer? = nil
        var hasType = false
        for i in 0..<attributes.count {
            let value = attributes.value(i)
            switch RecordAttribute.classify(attributes.name(i)) {
            case .type:
                typeBytes = value
                hasType = true
            case .value: valueBytes = value
            case .unit: unitBytes = value
            case .sourceName, .legacySource: record.sourceName = sourceNames.value(for: value)
            case .sourceVersion: record.sourceVersion = sourceVersions.value(for: value)
            case .device: record.device = device(value)
            case .creationDate:
                guard let date = ExportTimestamp.parse(value) else {
                    return fail(parser, .invalidAttribute, "invalid creationDate \(Self.quoted(value)) on <Record>")
                }
                record.creationDate = date
            case .startDate:
                guard let date = ExportTimestamp.parse(value) else {
                    return fail(parser, .invalidAttribute, "invalid startDate \(Self.quoted(value)) on <Record>")
                }
                record.startDate = date
            case .endDate:
                guard let date = ExportTimestamp.parse(value) else {
                    return fail(parser, .invalidAttribute, "invalid endDate \(Self.quoted(value)) on <Record>")
                }
                record.endDate = date
            case .recordCount:
                guard let number = ExportNumber.parse(value), number.value >= 1, number.value == number.value.rounded(),
                    number.value < 1e9
                else {
                    return fail(parser, .invalidAttribute, "invalid recordCount \(Self.quoted(value)) on <Record>")
                }
                record.count = Int(number.value)
            case .other:
                let name = String(decoding: attributes.name(i), as: UTF8.self)
                record.extensions.attributes.append(
                    GenericAttribute(name: name, value: String(decoding: value, as: UTF8.self)))
                notePassedThrough("Record@" + name)
                warnings.warn(
                    "attribute:Record@\(name)",
                    "attribute \(name) on <Record> is not part of healthport's model; passed through",
                    at: self.location(parser))
            }
        }
        guard hasType else {
            return fail(parser, .invalidAttribute, "<Record> has no type attribute")
        }
        let (type, isKnownType) = recordTypes.value(for: typeBytes)
        record.type = type
        if type.kind == .quantity || (type.kind != .category && unitBytes != nil) {
            guard let valueBytes else {
                return fail(parser, .invalidAttribute, "<Record> of type \(type.identifier.prefix(80)) has no value")
            }
            guard let number = ExportNumber.parse(valueBytes) else {
                return fail(parser, .invalidAttribute, "invalid value \(Self.quoted(valueBytes)) on <Record>")
            }
            record.isQuantity = true
            record.quantity = Quantity(value: number, unit: unitBytes.map { units.value(for: $0) } ?? "")
        } else {
            record.isQuantity = false
            record.categoryValue = valueBytes.map { categoryValues.value(for: $0) } ?? .notApplicable
            if let unitBytes {
                record.extensions.attributes.append(
                    GenericAttribute(name: "unit", value: String(decoding: unitBytes, as: UTF8.self)))
            }
        }
        if !isKnownType {
            warnings.warn(
                "type:\(type.identifier)",
                "samples of type \(type.identifier.prefix(80)), unknown to healthport, are passed through",
                at: self.location(parser))
        }
    }

    func finishRecord(parent: ElementKind?, _ parser: any ElementEventSource) {
        guard recordOpen else { return }
        recordOpen = false
        guard let start = record.startDate else {
            return fail(parser, .invalidAttribute, "<Record> has no startDate")
        }
        let end: ExportTimestamp
        if let recordEnd = record.endDate {
            end = recordEnd
        } else {
            end = start
            warnings.warn("missingEndDate", "records without endDate are read as instantaneous", at: self.location(parser))
        }
        if record.sourceName == nil {
            warnings.warn("missingSourceName", "records without sourceName are read with an empty source name", at: self.location(parser))
        }
        if parent != .correlation {
            // The hot path: the sample is built once from values moved out of the builder, its
            // uuid set before it is wrapped, and it is moved into the sink's object. Building it
            // first and wrapping a copy cost two copies and two destructions of every string in
            // it per record (callgrind: ~20 atomic retains and releases a record).
            if record.isQuantity {
                if !record.beats.isEmpty { BeatTimeResolver.resolve(&record.beats, start: start) }
                var quantitySample = QuantitySample(
                    sample: takeSample(start: start, end: end), quantity: record.quantity, count: record.count,
                    instantaneousBeatsPerMinute: record.beats.isEmpty ? [] : exchange(&record.beats, with: []))
                assigner.assign(&quantitySample)
                deliver(.quantitySample(consume quantitySample), parser)
            } else {
                var categorySample = CategorySample(sample: takeSample(start: start, end: end), value: record.categoryValue)
                assigner.assign(&categorySample)
                deliver(.categorySample(consume categorySample), parser)
            }
            return
        }
        guard let top = stack.indices.last, case .correlation(var group) = stack[top] else { return }
        stack[top] = .element(.correlation)
        // A member is a reference to the top-level sample the export prints again.
        if record.isQuantity {
            if !record.beats.isEmpty { BeatTimeResolver.resolve(&record.beats, start: start) }
            var member = QuantitySample(
                sample: takeSample(start: start, end: end), quantity: record.quantity, count: record.count,
                instantaneousBeatsPerMinute: record.beats)
            member.sample.uuid = assigner.memberUUID(of: .quantitySample(member))
            group.objects.append(.quantity(member))
        } else {
            var member = CategorySample(sample: takeSample(start: start, end: end), value: record.categoryValue)
            member.sample.uuid = assigner.memberUUID(of: .categorySample(member))
            group.objects.append(.category(member))
        }
        stack[top] = .correlation(group)
    }

    /// The finished record's shared attributes, moving the builder's values out (the builder is
    /// reset before the next record anyway), so no string in them is retained once more.
    @inline(__always)
    func takeSample(start: ExportTimestamp, end: ExportTimestamp) -> SampleAttributes {
        SampleAttributes(
            sampleType: record.type,
            sourceRevision: SourceRevision(source: Source(name: record.sourceName.take() ?? ""), version: record.sourceVersion.take()),
            device: record.device.take(), creationDate: record.creationDate, startDate: start, endDate: end,
            metadata: Metadata(record.metadata.isEmpty ? [] : exchange(&record.metadata, with: [])),
            extensions: record.extensions.isEmpty ? Extensions() : exchange(&record.extensions, with: Extensions()))
    }

    func device(_ value: UnsafeRawBufferPointer) -> Device {
        // Intern on the bytes after the per-record `0x…` address, which differs on every record.
        let prefix: StaticString = "<<HKDevice: 0x"
        let n = prefix.utf8CodeUnitCount
        if value.count > n, memcmp(value.baseAddress!, prefix.utf8Start, n) == 0 {
            var i = n
            while i < value.count, value[i] != 0x3E { i += 1 }
            if i < value.count {
                let rest = UnsafeRawBufferPointer(rebasing: value[i...])
                return devicesAfterAddress.value(for: rest)
            }
        }
        return devices.value(for: value)
    }

    func metadataEntry(_ attributes: AttributeView, parent: ElementKind, _ parser: any ElementEventSource) {
        var keyBytes: UnsafeRawBufferPointer? = nil
        var valueBytes: UnsafeRawBufferPointer? = nil
        for i in 0..<attributes.count {
            let name = attributes.name(i)
            if matches(name, "key") {
                keyBytes = attributes.value(i)
            } else if matches(name, "value") {
                valueBytes = attributes.value(i)
            }
        }
        guard let keyBytes else {
            return fail(parser, .invalidAttribute, "<MetadataEntry> has no key")
        }
        let key = metadataKeys.value(for: keyBytes)
        let value: MetadataValue
        if let valueBytes {
            value = MetadataValue.interpret(bytes: valueBytes, text: String(decoding: valueBytes, as: UTF8.self), key: key)
        } else {
            value = .string("")
        }
        let entry = MetadataEntry(key: key, value: value)
        let level = stack.count - 1
        func add(_ list: inout [MetadataEntry]) {
            if addMetadata(entry, to: &list, level: level) {
                warnings.warn(
                    "metadataConflict:\(key)",
                    "metadata key \(key.prefix(60)) appears twice on one object with different values; both are kept",
                    at: self.location(parser))
            }
        }
        if parent == .record {
            add(&record.metadata)
        } else {
            modifyTop { $0.addMetadata(add) }
        }
    }

    /// Past this many entries, an object's metadata is indexed by hash (`MetadataIndex`) for the
    /// duplicate checks; below, they scan the list. The common record has 0 to 5 entries and pays
    /// for no set; one with 12,000 entries of one key took 10.9 s to read when every entry
    /// scanned all the others (and was warned about once per earlier value).
    static let metadataScanLimit = 16

    /// Adds `entry` to the metadata of the element at `level` on the stack, HealthKit's
    /// dictionary as the export prints it (`Metadata`): a pair already there is not added again
    /// (workout metadata is printed twice, quirk Q8); a key already there with another value is
    /// added too, since dropping either would lose data. Linear in the entries of an object.
    ///
    /// - Returns: whether the entry was added under a key the object already had (a conflict,
    ///   which the caller warns about, once per entry).
    func addMetadata(_ entry: MetadataEntry, to list: inout [MetadataEntry], level: Int) -> Bool {
        if list.count < Self.metadataScanLimit {
            var conflict = false
            for existing in list where existing.key == entry.key {
                if existing.value == entry.value { return false }
                conflict = true
            }
            list.append(entry)
            return conflict
        }
        if level >= metadataIndexes.count { metadataIndexes.append(contentsOf: repeatElement(nil, count: level + 1 - metadataIndexes.count)) }
        var index = metadataIndexes[level].flatMap { $0.count == list.count ? $0 : nil } ?? MetadataIndex(list)
        metadataIndexes[level] = nil  // held once while it changes
        defer { metadataIndexes[level] = index }
        guard index.pairs.insert(entry).inserted else { return false }
        let conflict = !index.keys.insert(entry.key).inserted
        list.append(entry)
        index.count = list.count
        return conflict
    }

    func beat(_ attributes: AttributeView, _ parser: any ElementEventSource) {
        var bpm: ExportNumber? = nil
        var time = ""
        for i in 0..<attributes.count {
            let name = attributes.name(i)
            let value = attributes.value(i)
            if matches(name, "bpm") {
                guard let number = ExportNumber.parse(value) else {
                    return fail(parser, .invalidAttribute, "invalid bpm \(Self.quoted(value)) on <InstantaneousBeatsPerMinute>")
                }
                bpm = number
            } else if matches(name, "time") {
                time = String(decoding: value, as: UTF8.self)
            }
        }
        guard let bpm else {
            return fail(parser, .invalidAttribute, "<InstantaneousBeatsPerMinute> has no bpm")
        }
        record.beats.append(InstantaneousBeatsPerMinute(bpm: bpm, time: time))
    }
}

/// The keys and pairs of one object's metadata, for duplicate checks in constant time once the
/// object has many entries (`ExportMapper.metadataScanLimit`).
struct MetadataIndex {
    var pairs: Set<MetadataEntry>
    var keys: Set<String>
    /// The entries indexed: the list's length while the index is current.
    var count: Int

    init(_ entries: [MetadataEntry]) {
        pairs = Set(entries)
        keys = Set(entries.lazy.map(\.key))
        count = entries.count
    }
}
