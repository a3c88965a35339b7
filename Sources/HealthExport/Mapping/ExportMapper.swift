import Foundation
import HealthModel

/// Turns libxml2's SAX events into model objects, one top-level element at a time.
///
/// State is a stack of element kinds plus one builder per kind that can be open at once; a
/// builder is cleared when its object is handed to the sink. Memory therefore holds the current
/// object only (a workout with its events and routes, at most), plus the interners.
///
/// Element kinds and attributes this model does not know are not errors: they are kept as
/// `GenericElement`s / `GenericAttribute`s in the enclosing object's `extensions` (or as an
/// `UnknownObject` at top level), and warned about once per name.
final class ExportMapper: ElementEventHandler {
    private let sink: any ObjectSink
    private let warnings: WarningCollector
    private let file: String
    private let member: String?
    /// Where a synthetic root was inserted (fragments), to correct libxml2's columns.
    @exclusivity(unchecked) var syntheticRootPosition: (line: Int, column: Int)?

    @exclusivity(unchecked) private(set) var header = ExportHeader()
    /// The DTD's export version, set by the reader before the first element.
    var exportVersion: Int? {
        get { header.exportVersion }
        set { header.exportVersion = newValue }
    }
    @exclusivity(unchecked) private var headerDelivered = false
    /// The header as the sink got it (a parallel read hands chunk 0's to the real sink).
    @exclusivity(unchecked) private(set) var deliveredHeader: ExportHeader? = nil
    /// Whether the header went to the sink because a top-level object began (not at the end,
    /// which in a parallel read's chunk may be a synthetic end).
    @exclusivity(unchecked) private(set) var headerDeliveredByElement = false
    var hasDeliveredHeader: Bool { headerDelivered }
    /// Derives uuids; a parallel read journals it in each chunk and carries it across.
    @exclusivity(unchecked) var assigner = ObjectIdentityAssigner()
    /// Added to libxml2's line numbers: a parallel read parses a chunk after a copy of the
    /// prolog, so its lines are not the file's.
    @exclusivity(unchecked) var lineOffset = 0

    // Interners for the values that repeat.
    /// Record types, with whether healthport knows them: asked once per type, not per record
    /// (the catalogue lookup hashed the identifier for every record: 2 % of a conversion).
    private let recordTypes = ByteInterner<(type: ObjectType, isKnown: Bool)> {
        let type = ObjectType(recordType: String(decoding: $0, as: UTF8.self))
        return (type, type.isKnown)
    }
    /// One interner per attribute: each remembers its last two values, and a record's source
    /// name, version and unit would otherwise evict each other.
    private let sourceNames = ByteInterner<String> { String(decoding: $0, as: UTF8.self) }
    private let sourceVersions = ByteInterner<String> { String(decoding: $0, as: UTF8.self) }
    private let units = ByteInterner<String> { String(decoding: $0, as: UTF8.self) }
    private let metadataKeys = ByteInterner<String> { String(decoding: $0, as: UTF8.self) }
    private let devices = ByteInterner<Device> { Device.parse(description: String(decoding: $0, as: UTF8.self)) }
    private let categoryValues = ByteInterner<CategoryValue> { CategoryValue.interpret(String(decoding: $0, as: UTF8.self)) }

    // The element stack.
    @exclusivity(unchecked) private var stack: [ElementKind] = []
    @exclusivity(unchecked) private var genericStack: [GenericElement] = []
    @exclusivity(unchecked) private var nestedElementCount = 0
    static let maximumElementsPerObject = 5_000_000
    /// How deep unknown elements may nest inside one object. libxml2's own depth limit does not
    /// apply to SAX parsing, and identity, output and release all recurse over the kept tree:
    /// 100,000 levels overflowed the stack (found by a hostile-input test). Real exports nest
    /// four levels at most.
    static let maximumUnknownNesting = 64

    // Builders.
    @exclusivity(unchecked) private var record = RecordBuilder()
    @exclusivity(unchecked) private var recordOpen = false
    @exclusivity(unchecked) private var correlation: Correlation? = nil
    @exclusivity(unchecked) private var workout: Workout? = nil
    @exclusivity(unchecked) private var activity: WorkoutActivity? = nil
    @exclusivity(unchecked) private var event: WorkoutEvent? = nil
    @exclusivity(unchecked) private var route: WorkoutRoute? = nil
    @exclusivity(unchecked) private var audiogram: Audiogram? = nil
    @exclusivity(unchecked) private var point: SensitivityPoint? = nil
    @exclusivity(unchecked) private var prescription: VisionPrescription? = nil
    @exclusivity(unchecked) private var eye: LensSpecification? = nil
    @exclusivity(unchecked) private var pendingStatistics: WorkoutStatistics? = nil
    @exclusivity(unchecked) private var pendingLocation: RouteLocation? = nil
    @exclusivity(unchecked) private var summary: ActivitySummary? = nil
    @exclusivity(unchecked) private var clinical: ClinicalRecord? = nil

    /// Objects handed to the sink, by kind, for the read summary.
    @exclusivity(unchecked) private(set) var objectCount = 0
    /// Elements and attributes passed through generically, by name.
    @exclusivity(unchecked) private(set) var passedThrough: [String: Int] = [:]

    /// Type identifiers to build; top-level objects of other types are skipped unbuilt.
    var typeFilter: Set<String>? = nil
    /// Depth inside a skipped top-level element (0: not skipping).
    @exclusivity(unchecked) private var skipDepth = 0

    /// Continues a read already under way (a parallel read that turns sequential at a chunk):
    /// `objectCount` objects were delivered, and the header too if `headerDelivered` (else it
    /// goes to the sink as in any read, when the first object begins or at the end).
    func resume(header: ExportHeader, headerDelivered: Bool, objectCount: Int) {
        self.header = header
        self.headerDelivered = headerDelivered
        if headerDelivered { deliveredHeader = header }
        self.objectCount = objectCount
    }

    init(sink: any ObjectSink, warnings: WarningCollector, file: String, member: String?) {
        self.sink = sink
        self.warnings = warnings
        self.file = file
        self.member = member
    }

    var wantsCharacters: Bool { !genericStack.isEmpty }

    // MARK: Locations and failures

    func location(_ parser: any ElementEventSource) -> SourceLocation {
        var column = parser.column
        let line = parser.line
        if let root = syntheticRootPosition, root.line == line, column > root.column {
            column = max(root.column, column - XMLPreFilter.syntheticRootOpen.count)
        }
        return SourceLocation(file: file, member: member, line: line + lineOffset, column: column)
    }

    private func fail(_ parser: any ElementEventSource, _ code: ExportError.Code, _ message: String) {
        parser.stop(with: ExportError(code, message, at: location(parser)))
    }

    /// Quotes a value for a message, shortened: enough to find it, not a copy of personal data.
    static func quoted(_ bytes: UnsafeRawBufferPointer) -> String {
        let text = String(decoding: bytes.prefix(40), as: UTF8.self)
        return "\"\(text)\(bytes.count > 40 ? "…" : "")\""
    }

    // MARK: Events

    func startElement(_ name: ElementName, _ attributes: AttributeView, _ parser: any ElementEventSource) {
        if parser.pendingError != nil { return }
        if skipDepth > 0 {
            skipDepth += 1
            return
        }
        if !genericStack.isEmpty {
            startGeneric(name, attributes, parser)
            return
        }
        let kind = ElementKind.classify(name)
        let parent = stack.last
        if stack.count >= 1 {
            nestedElementCount += 1
            if nestedElementCount > Self.maximumElementsPerObject {
                fail(parser, .limitExceeded, "an element holds more than \(Self.maximumElementsPerObject) nested elements")
                return
            }
        }
        guard let parent else {
            // The root.
            guard kind == .healthData else {
                fail(parser, .notAnExport, "not an Apple Health export: the root element is <\(name.string.prefix(40))>")
                return
            }
            stack.append(.healthData)
            for i in 0..<attributes.count {
                let attributeName = String(decoding: attributes.name(i), as: UTF8.self)
                if attributeName == "locale" {
                    header.locale = String(decoding: attributes.value(i), as: UTF8.self)
                }
            }
            return
        }
        if parent == .healthData {
            nestedElementCount = 0
            if kind != .exportDate && kind != .me {
                if !headerDelivered { headerDeliveredByElement = true }
                deliverHeader(parser)
                if let typeFilter {
                    let identifier = topLevelType(kind, name, attributes)
                    if !typeFilter.contains(identifier) {
                        assigner.skip(runKey: identifier)
                        skipDepth = 1
                        return
                    }
                }
            }
        }
        switch (parent, kind) {
        case (.healthData, .exportDate):
            for i in 0..<attributes.count where matches(attributes.name(i), "value") {
                let value = attributes.value(i)
                guard let date = ExportTimestamp.parse(value) else {
                    fail(parser, .invalidAttribute, "invalid value \(Self.quoted(value)) on <ExportDate>")
                    return
                }
                header.exportDate = date
            }
        case (.healthData, .me):
            header.characteristics = characteristics(attributes)
        case (.healthData, .record), (.correlation, .record):
            startRecord(attributes, parser)
        case (.record, .metadataEntry), (.correlation, .metadataEntry), (.workout, .metadataEntry),
            (.workoutEvent, .metadataEntry), (.workoutActivity, .metadataEntry),
            (.workoutRoute, .metadataEntry), (.audiogram, .metadataEntry),
            (.visionPrescription, .metadataEntry):
            metadataEntry(attributes, parent: parent, parser)
        case (.record, .hrvList):
            break
        case (.hrvList, .instantaneousBeat):
            beat(attributes, parser)
        case (.healthData, .correlation):
            correlation = Correlation(sample: sampleAttributes(attributes, element: "Correlation", parser: parser) { _, _ in false }, objects: [])
        case (.healthData, .workout):
            startWorkout(attributes, parser)
        case (.workout, .workoutEvent), (.workoutActivity, .workoutEvent):
            startEvent(attributes, parser)
        case (.workout, .workoutActivity):
            startActivity(attributes, parser)
        case (.workout, .workoutStatistics), (.workoutActivity, .workoutStatistics):
            startStatistics(attributes, parser)
        case (.workout, .workoutRoute):
            route = WorkoutRoute(sample: sampleAttributes(attributes, element: "WorkoutRoute", parser: parser) { _, _ in false }.with(type: .workoutRoute))
        case (.workoutRoute, .fileReference):
            for i in 0..<attributes.count where matches(attributes.name(i), "path") {
                route?.fileReference = String(decoding: attributes.value(i), as: UTF8.self)
            }
        case (.workoutRoute, .location):
            startLocation(attributes, parser)
        case (.healthData, .activitySummary):
            startActivitySummary(attributes, parser)
        case (.healthData, .clinicalRecord):
            startClinicalRecord(attributes, parser)
        case (.healthData, .audiogram):
            audiogram = Audiogram(sample: sampleAttributes(attributes, element: "Audiogram", parser: parser) { _, _ in false }.with(type: .audiogram))
        case (.audiogram, .sensitivityPoint):
            startSensitivityPoint(attributes, parser)
        case (.healthData, .visionPrescription):
            startVisionPrescription(attributes, parser)
        case (.visionPrescription, .rightEye), (.visionPrescription, .leftEye):
            startEye(attributes, parser)
        case (.visionPrescription, .attachment):
            for i in 0..<attributes.count where matches(attributes.name(i), "identifier") {
                prescription?.attachments.append(String(decoding: attributes.value(i), as: UTF8.self))
            }
        default:
            // Unknown element, or a known one in a place it does not belong: keep it whole.
            startGeneric(name, attributes, parser)
            return
        }
        stack.append(kind)
    }

    func endElement(_ name: ElementName, _ parser: any ElementEventSource) {
        if parser.pendingError != nil { return }
        if skipDepth > 0 {
            skipDepth -= 1
            return
        }
        if !genericStack.isEmpty {
            endGeneric(parser)
            return
        }
        guard let kind = stack.popLast() else { return }
        let parent = stack.last
        switch kind {
        case .healthData:
            deliverHeader(parser)
        case .record:
            finishRecord(parent: parent, parser)
        case .correlation:
            if var object = correlation {
                correlation = nil
                object.objects.sort { $0.sample.uuid < $1.sample.uuid }
                emit(.correlation(object), parser)
            }
        case .workout:
            if let object = workout {
                workout = nil
                emit(.workout(object), parser)
            }
        case .workoutEvent:
            if let finished = event {
                event = nil
                if parent == .workoutActivity {
                    activity?.workoutEvents.append(finished)
                } else {
                    workout?.workoutEvents.append(finished)
                }
            }
        case .workoutActivity:
            if let finished = activity {
                activity = nil
                workout?.workoutActivities.append(finished)
            }
        case .workoutStatistics:
            if let finished = pendingStatistics {
                pendingStatistics = nil
                if parent == .workoutActivity {
                    activity?.statistics.append(finished)
                } else {
                    workout?.statistics.append(finished)
                }
            }
        case .workoutRoute:
            if let finished = route {
                route = nil
                workout?.routes.append(finished)
            }
        case .location:
            if let finished = pendingLocation {
                pendingLocation = nil
                route?.locations.append(finished)
            }
        case .activitySummary:
            if let object = summary {
                summary = nil
                emit(.activitySummary(object), parser)
            }
        case .clinicalRecord:
            if let object = clinical {
                clinical = nil
                emit(.clinicalRecord(object), parser)
            }
        case .audiogram:
            if let object = audiogram {
                audiogram = nil
                emit(.audiogram(object), parser)
            }
        case .sensitivityPoint:
            if let finished = point {
                point = nil
                audiogram?.sensitivityPoints.append(finished)
            }
        case .visionPrescription:
            if let object = prescription {
                prescription = nil
                emit(.visionPrescription(object), parser)
            }
        case .rightEye, .leftEye:
            if let finished = eye {
                eye = nil
                if kind == .rightEye { prescription?.rightEye = finished } else { prescription?.leftEye = finished }
            }
        default:
            break
        }
    }

    func characters(_ bytes: UnsafeRawBufferPointer, _ parser: any ElementEventSource) {
        guard !genericStack.isEmpty else { return }
        let text = String(decoding: bytes, as: UTF8.self)
        let last = genericStack.count - 1
        let current = genericStack[last].text ?? ""
        if current.utf8.count + text.utf8.count <= 1 << 20 {
            genericStack[last].text = current + text
        }
    }

    /// Called after the last byte: delivers the header of an export without objects.
    func finish(_ parser: any ElementEventSource) {
        deliverHeader(parser)
    }

    /// The type identifier a top-level element will have, read from its name and `type`
    /// attribute only, so that a filtered-out element is never built.
    private func topLevelType(_ kind: ElementKind, _ name: ElementName, _ attributes: AttributeView) -> String {
        func typeAttribute() -> UnsafeRawBufferPointer? {
            for i in 0..<attributes.count where matches(attributes.name(i), "type") { return attributes.value(i) }
            return nil
        }
        switch kind {
        case .record:
            return typeAttribute().map { recordTypes.value(for: $0).type.identifier } ?? ""
        case .correlation:
            return typeAttribute().map { ObjectType(recordType: String(decoding: $0, as: UTF8.self)).identifier } ?? ""
        case .workout: return ObjectType.workout.identifier
        case .activitySummary: return ObjectType.activitySummary.identifier
        case .audiogram: return ObjectType.audiogram.identifier
        case .visionPrescription: return ObjectType.visionPrescription.identifier
        case .clinicalRecord:
            return ObjectType.clinical(fhirResourceType: typeAttribute().map { String(decoding: $0, as: UTF8.self) } ?? "").identifier
        default: return name.string
        }
    }

    // MARK: Emission

    private func deliverHeader(_ parser: any ElementEventSource) {
        guard !headerDelivered else { return }
        headerDelivered = true
        deliveredHeader = header
        do {
            try sink.exportDidBegin(header)
        } catch {
            parser.stop(with: error)
        }
    }

    private func emit(_ object: HealthObject, _ parser: any ElementEventSource) {
        var object = object
        assigner.assign(&object)
        deliver(object, parser)
    }

    /// Hands an object whose uuid is set to the sink.
    @inline(__always)
    private func deliver(_ object: HealthObject, _ parser: any ElementEventSource) {
        objectCount += 1
        do {
            try sink.consume(object)
        } catch {
            parser.stop(with: error)
        }
    }

    // MARK: Records (the hot path)

    private func startRecord(_ attributes: AttributeView, _ parser: any ElementEventSource) {
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
                passedThrough["Record@" + name, default: 0] += 1
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

    private func finishRecord(parent: ElementKind?, _ parser: any ElementEventSource) {
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
        guard var group = correlation else { return }
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
        correlation = group
    }

    /// The finished record's shared attributes, moving the builder's values out (the builder is
    /// reset before the next record anyway), so no string in them is retained once more.
    @inline(__always)
    private func takeSample(start: ExportTimestamp, end: ExportTimestamp) -> SampleAttributes {
        SampleAttributes(
            sampleType: record.type,
            sourceRevision: SourceRevision(source: Source(name: record.sourceName.take() ?? ""), version: record.sourceVersion.take()),
            device: record.device.take(), creationDate: record.creationDate, startDate: start, endDate: end,
            metadata: Metadata(record.metadata.isEmpty ? [] : exchange(&record.metadata, with: [])),
            extensions: record.extensions.isEmpty ? Extensions() : exchange(&record.extensions, with: Extensions()))
    }

    private func device(_ value: UnsafeRawBufferPointer) -> Device {
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

    private let devicesAfterAddress = ByteInterner<Device> { rest in
        Device.parse(description: "<<HKDevice: 0x0" + String(decoding: rest, as: UTF8.self))
    }

    private func metadataEntry(_ attributes: AttributeView, parent: ElementKind, _ parser: any ElementEventSource) {
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
            value = MetadataValue.interpret(bytes: valueBytes, text: String(decoding: valueBytes, as: UTF8.self))
        } else {
            value = .string("")
        }
        let entry = MetadataEntry(key: key, value: value)
        func add(_ list: inout [MetadataEntry]) {
            for existing in list where existing.key == entry.key {
                if existing.value == entry.value { return }
                warnings.warn(
                    "metadataConflict:\(key)",
                    "metadata key \(key.prefix(60)) appears twice on one object with different values; both are kept",
                    at: self.location(parser))
            }
            list.append(entry)
        }
        switch parent {
        case .record: add(&record.metadata)
        case .correlation: if correlation != nil { add(&correlation!.sample.metadata.entries) }
        case .workout: if workout != nil { add(&workout!.sample.metadata.entries) }
        case .workoutEvent: if event != nil { add(&event!.metadata.entries) }
        case .workoutActivity: if activity != nil { add(&activity!.metadata.entries) }
        case .workoutRoute: if route != nil { add(&route!.sample.metadata.entries) }
        case .audiogram: if audiogram != nil { add(&audiogram!.sample.metadata.entries) }
        case .visionPrescription: if prescription != nil { add(&prescription!.metadata.entries) }
        default: break
        }
    }

    private func beat(_ attributes: AttributeView, _ parser: any ElementEventSource) {
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

    // MARK: The other kinds (cold paths: names become Strings)

    private func characteristics(_ attributes: AttributeView) -> Characteristics {
        var me = Characteristics()
        for i in 0..<attributes.count {
            let name = String(decoding: attributes.name(i), as: UTF8.self)
            let value = String(decoding: attributes.value(i), as: UTF8.self)
            let present: String? = value.isEmpty ? nil : value
            switch name {
            case "HKCharacteristicTypeIdentifierDateOfBirth": me.dateOfBirth = present
            case "HKCharacteristicTypeIdentifierBiologicalSex": me.biologicalSex = present
            case "HKCharacteristicTypeIdentifierBloodType": me.bloodType = present
            case "HKCharacteristicTypeIdentifierFitzpatrickSkinType": me.fitzpatrickSkinType = present
            case "HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse": me.cardioFitnessMedicationsUse = present
            default: me.other.append(GenericAttribute(name: name, value: value))
            }
        }
        return me
    }

    /// Reads the attributes every sample element shares; others go to `extra`, which returns
    /// whether it used them (the rest become extensions).
    private func sampleAttributes(
        _ attributes: AttributeView, element: String, parser: any ElementEventSource,
        extra: (String, UnsafeRawBufferPointer) -> Bool
    ) -> SampleAttributes {
        var type = ObjectType(identifier: element, kind: .other)
        var sourceName: String? = nil
        var version: String? = nil
        var device: Device? = nil
        var creation: ExportTimestamp? = nil
        var start: ExportTimestamp? = nil
        var end: ExportTimestamp? = nil
        var extensions = Extensions()
        for i in 0..<attributes.count {
            let name = String(decoding: attributes.name(i), as: UTF8.self)
            let value = attributes.value(i)
            switch name {
            case "type": type = ObjectType(recordType: String(decoding: value, as: UTF8.self))
            case "sourceName", "source": sourceName = sourceNames.value(for: value)
            case "sourceVersion": version = sourceVersions.value(for: value)
            case "device": device = self.device(value)
            case "creationDate", "startDate", "endDate":
                guard let date = ExportTimestamp.parse(value) else {
                    fail(parser, .invalidAttribute, "invalid \(name) \(Self.quoted(value)) on <\(element)>")
                    continue
                }
                if name == "creationDate" { creation = date } else if name == "startDate" { start = date } else { end = date }
            default:
                if !extra(name, value) {
                    extensions.attributes.append(GenericAttribute(name: name, value: String(decoding: value, as: UTF8.self)))
                    passedThrough["\(element)@\(name)", default: 0] += 1
                    warnings.warn(
                        "attribute:\(element)@\(name)",
                        "attribute \(name.prefix(60)) on <\(element)> is not part of healthport's model; passed through",
                        at: self.location(parser))
                }
            }
        }
        if start == nil, parser.pendingError == nil {
            fail(parser, .invalidAttribute, "<\(element)> has no startDate")
        }
        let startDate = start ?? ExportTimestamp(secondsSince1970: 0, utcOffsetSeconds: 0)
        if sourceName == nil {
            warnings.warn("missingSourceName", "objects without sourceName are read with an empty source name", at: self.location(parser))
        }
        return SampleAttributes(
            sampleType: type, sourceRevision: SourceRevision(source: Source(name: sourceName ?? ""), version: version),
            device: device, creationDate: creation, startDate: startDate, endDate: end ?? startDate,
            extensions: extensions)
    }

    private func number(_ value: UnsafeRawBufferPointer, _ name: String, _ element: String, _ parser: any ElementEventSource) -> ExportNumber? {
        if value.count == 0 { return nil }
        guard let number = ExportNumber.parse(value) else {
            fail(parser, .invalidAttribute, "invalid \(name) \(Self.quoted(value)) on <\(element)>")
            return nil
        }
        return number
    }

    private func date(_ value: UnsafeRawBufferPointer, _ name: String, _ element: String, _ parser: any ElementEventSource) -> ExportTimestamp? {
        guard let date = ExportTimestamp.parse(value) else {
            fail(parser, .invalidAttribute, "invalid \(name) \(Self.quoted(value)) on <\(element)>")
            return nil
        }
        return date
    }

    private func unknownAttribute(_ element: String, _ name: String, _ value: UnsafeRawBufferPointer, into extensions: inout Extensions, _ parser: any ElementEventSource) {
        extensions.attributes.append(GenericAttribute(name: name, value: String(decoding: value, as: UTF8.self)))
        passedThrough["\(element)@\(name)", default: 0] += 1
        warnings.warn(
            "attribute:\(element)@\(name)",
            "attribute \(name.prefix(60)) on <\(element)> is not part of healthport's model; passed through",
            at: self.location(parser))
    }

    private func startWorkout(_ attributes: AttributeView, _ parser: any ElementEventSource) {
        var activityType = ""
        var values: [String: ExportNumber] = [:]
        var units: [String: String] = [:]
        let sample = sampleAttributes(attributes, element: "Workout", parser: parser) { name, value in
            switch name {
            case "workoutActivityType":
                activityType = String(decoding: value, as: UTF8.self)
            case "duration", "totalDistance", "totalEnergyBurned":
                if let n = self.number(value, name, "Workout", parser) { values[name] = n }
            case "durationUnit", "totalDistanceUnit", "totalEnergyBurnedUnit":
                units[String(name.dropLast(4))] = String(decoding: value, as: UTF8.self)
            default:
                return false
            }
            return true
        }.with(type: .workout)
        func quantity(_ name: String) -> Quantity? {
            values[name].map { Quantity(value: $0, unit: units[name] ?? "") }
        }
        workout = Workout(
            sample: sample, workoutActivityType: WorkoutActivityType(name: activityType), duration: quantity("duration"),
            totalDistance: quantity("totalDistance"), totalEnergyBurned: quantity("totalEnergyBurned"))
    }

    private func startEvent(_ attributes: AttributeView, _ parser: any ElementEventSource) {
        var type = ""
        var date: ExportTimestamp? = nil
        var duration: ExportNumber? = nil
        var unit = ""
        var extensions = Extensions()
        for i in 0..<attributes.count {
            let name = String(decoding: attributes.name(i), as: UTF8.self)
            let value = attributes.value(i)
            switch name {
            case "type": type = String(decoding: value, as: UTF8.self)
            case "date": date = self.date(value, name, "WorkoutEvent", parser)
            case "duration": duration = number(value, name, "WorkoutEvent", parser)
            case "durationUnit": unit = String(decoding: value, as: UTF8.self)
            default: unknownAttribute("WorkoutEvent", name, value, into: &extensions, parser)
            }
        }
        guard let date else {
            if parser.pendingError == nil { fail(parser, .invalidAttribute, "<WorkoutEvent> has no date") }
            return
        }
        event = WorkoutEvent(
            type: WorkoutEventType(name: type), date: date, duration: duration.map { Quantity(value: $0, unit: unit) },
            extensions: extensions)
    }

    private func startActivity(_ attributes: AttributeView, _ parser: any ElementEventSource) {
        var uuid = ""
        var start: ExportTimestamp? = nil
        var end: ExportTimestamp? = nil
        var duration: ExportNumber? = nil
        var unit = ""
        var extensions = Extensions()
        for i in 0..<attributes.count {
            let name = String(decoding: attributes.name(i), as: UTF8.self)
            let value = attributes.value(i)
            switch name {
            case "uuid": uuid = String(decoding: value, as: UTF8.self)
            case "startDate": start = date(value, name, "WorkoutActivity", parser)
            case "endDate": end = date(value, name, "WorkoutActivity", parser)
            case "duration": duration = number(value, name, "WorkoutActivity", parser)
            case "durationUnit": unit = String(decoding: value, as: UTF8.self)
            default: unknownAttribute("WorkoutActivity", name, value, into: &extensions, parser)
            }
        }
        guard let start else {
            if parser.pendingError == nil { fail(parser, .invalidAttribute, "<WorkoutActivity> has no startDate") }
            return
        }
        activity = WorkoutActivity(
            uuid: uuid, startDate: start, endDate: end, duration: duration.map { Quantity(value: $0, unit: unit) },
            extensions: extensions)
    }

    private func startStatistics(_ attributes: AttributeView, _ parser: any ElementEventSource) {
        var type = ObjectType(identifier: "", kind: .quantity)
        var start: ExportTimestamp? = nil
        var end: ExportTimestamp? = nil
        var statistics = WorkoutStatistics(
            quantityType: type, startDate: ExportTimestamp(secondsSince1970: 0, utcOffsetSeconds: 0),
            endDate: ExportTimestamp(secondsSince1970: 0, utcOffsetSeconds: 0))
        for i in 0..<attributes.count {
            let name = String(decoding: attributes.name(i), as: UTF8.self)
            let value = attributes.value(i)
            switch name {
            case "type": type = recordTypes.value(for: value).type
            case "startDate": start = date(value, name, "WorkoutStatistics", parser)
            case "endDate": end = date(value, name, "WorkoutStatistics", parser)
            case "average": statistics.average = number(value, name, "WorkoutStatistics", parser)
            case "minimum": statistics.minimum = number(value, name, "WorkoutStatistics", parser)
            case "maximum": statistics.maximum = number(value, name, "WorkoutStatistics", parser)
            case "sum": statistics.sum = number(value, name, "WorkoutStatistics", parser)
            case "unit": statistics.unit = units.value(for: value)
            default: unknownAttribute("WorkoutStatistics", name, value, into: &statistics.extensions, parser)
            }
        }
        guard let start else {
            if parser.pendingError == nil { fail(parser, .invalidAttribute, "<WorkoutStatistics> has no startDate") }
            return
        }
        statistics.quantityType = type
        statistics.startDate = start
        statistics.endDate = end ?? start
        pendingStatistics = statistics
    }

    private func startLocation(_ attributes: AttributeView, _ parser: any ElementEventSource) {
        var location = RouteLocation()
        for i in 0..<attributes.count {
            let name = String(decoding: attributes.name(i), as: UTF8.self)
            let value = attributes.value(i)
            switch name {
            case "date": location.date = date(value, name, "Location", parser)
            case "latitude": location.latitude = number(value, name, "Location", parser)
            case "longitude": location.longitude = number(value, name, "Location", parser)
            case "altitude": location.altitude = number(value, name, "Location", parser)
            case "horizontalAccuracy": location.horizontalAccuracy = number(value, name, "Location", parser)
            case "verticalAccuracy": location.verticalAccuracy = number(value, name, "Location", parser)
            case "course": location.course = number(value, name, "Location", parser)
            case "speed": location.speed = number(value, name, "Location", parser)
            default:
                passedThrough["Location@\(name)", default: 0] += 1
            }
        }
        pendingLocation = location
    }

    private func startActivitySummary(_ attributes: AttributeView, _ parser: any ElementEventSource) {
        var object = ActivitySummary()
        for i in 0..<attributes.count {
            let name = String(decoding: attributes.name(i), as: UTF8.self)
            let value = attributes.value(i)
            switch name {
            case "dateComponents":
                guard let day = CalendarDate.parse(value) else {
                    return fail(parser, .invalidAttribute, "invalid dateComponents \(Self.quoted(value)) on <ActivitySummary>")
                }
                object.dateComponents = day
            case "activeEnergyBurned": object.activeEnergyBurned = number(value, name, "ActivitySummary", parser)
            case "activeEnergyBurnedGoal": object.activeEnergyBurnedGoal = number(value, name, "ActivitySummary", parser)
            case "activeEnergyBurnedUnit": object.activeEnergyBurnedUnit = String(decoding: value, as: UTF8.self)
            case "appleMoveTime", "appleMoveMinutes": object.appleMoveTime = number(value, name, "ActivitySummary", parser)
            case "appleMoveTimeGoal", "appleMoveMinutesGoal":
                object.appleMoveTimeGoal = number(value, name, "ActivitySummary", parser)
            case "appleExerciseTime": object.appleExerciseTime = number(value, name, "ActivitySummary", parser)
            case "appleExerciseTimeGoal": object.appleExerciseTimeGoal = number(value, name, "ActivitySummary", parser)
            case "appleStandHours": object.appleStandHours = number(value, name, "ActivitySummary", parser)
            case "appleStandHoursGoal": object.appleStandHoursGoal = number(value, name, "ActivitySummary", parser)
            default: unknownAttribute("ActivitySummary", name, value, into: &object.extensions, parser)
            }
        }
        summary = object
    }

    private func startClinicalRecord(_ attributes: AttributeView, _ parser: any ElementEventSource) {
        var fields: [String: String] = [:]
        var extensions = Extensions()
        var received: ExportTimestamp? = nil
        for i in 0..<attributes.count {
            let name = String(decoding: attributes.name(i), as: UTF8.self)
            let value = attributes.value(i)
            switch name {
            case "type", "identifier", "sourceName", "sourceURL", "fhirVersion", "resourceFilePath":
                fields[name] = String(decoding: value, as: UTF8.self)
            case "receivedDate": received = date(value, name, "ClinicalRecord", parser)
            default: unknownAttribute("ClinicalRecord", name, value, into: &extensions, parser)
            }
        }
        var object = ClinicalRecord(fhirResourceType: fields["type"] ?? "")
        object.identifier = fields["identifier"]
        object.sourceName = fields["sourceName"]
        object.sourceURL = fields["sourceURL"]
        object.fhirVersion = fields["fhirVersion"]
        object.resourceFilePath = fields["resourceFilePath"]
        object.receivedDate = received
        object.extensions = extensions
        clinical = object
    }

    private func startSensitivityPoint(_ attributes: AttributeView, _ parser: any ElementEventSource) {
        var values: [String: ExportNumber] = [:]
        var units: [String: String] = [:]
        var object = SensitivityPoint()
        for i in 0..<attributes.count {
            let name = String(decoding: attributes.name(i), as: UTF8.self)
            let value = attributes.value(i)
            switch name {
            case "frequencyValue", "leftEarValue", "rightEarValue":
                if let n = number(value, name, "SensitivityPoint", parser) { values[String(name.dropLast(5))] = n }
            case "frequencyUnit", "leftEarUnit", "rightEarUnit":
                units[String(name.dropLast(4))] = String(decoding: value, as: UTF8.self)
            case "leftEarMasked": object.leftEarMasked = String(decoding: value, as: UTF8.self)
            case "rightEarMasked": object.rightEarMasked = String(decoding: value, as: UTF8.self)
            case "leftEarClampingRangeLowerBound": object.leftEarClampingRangeLowerBound = number(value, name, "SensitivityPoint", parser)
            case "leftEarClampingRangeUpperBound": object.leftEarClampingRangeUpperBound = number(value, name, "SensitivityPoint", parser)
            case "rightEarClampingRangeLowerBound": object.rightEarClampingRangeLowerBound = number(value, name, "SensitivityPoint", parser)
            case "rightEarClampingRangeUpperBound": object.rightEarClampingRangeUpperBound = number(value, name, "SensitivityPoint", parser)
            default: unknownAttribute("SensitivityPoint", name, value, into: &object.extensions, parser)
            }
        }
        func quantity(_ stem: String) -> Quantity? { values[stem].map { Quantity(value: $0, unit: units[stem] ?? "") } }
        object.frequency = quantity("frequency")
        object.leftEarSensitivity = quantity("leftEar")
        object.rightEarSensitivity = quantity("rightEar")
        point = object
    }

    private func startVisionPrescription(_ attributes: AttributeView, _ parser: any ElementEventSource) {
        var object = VisionPrescription()
        for i in 0..<attributes.count {
            let name = String(decoding: attributes.name(i), as: UTF8.self)
            let value = attributes.value(i)
            switch name {
            case "type": object.prescriptionType = String(decoding: value, as: UTF8.self)
            case "dateIssued": object.dateIssued = date(value, name, "VisionPrescription", parser)
            case "expirationDate": object.expirationDate = value.count == 0 ? nil : date(value, name, "VisionPrescription", parser)
            case "brand": object.brand = String(decoding: value, as: UTF8.self)
            default: unknownAttribute("VisionPrescription", name, value, into: &object.extensions, parser)
            }
        }
        prescription = object
    }

    private func startEye(_ attributes: AttributeView, _ parser: any ElementEventSource) {
        var values: [String: ExportNumber] = [:]
        var units: [String: String] = [:]
        var object = LensSpecification()
        let stems = Set(LensSpecification.fields.map(\.attribute))
        for i in 0..<attributes.count {
            let name = String(decoding: attributes.name(i), as: UTF8.self)
            let value = attributes.value(i)
            if stems.contains(name) {
                if let n = number(value, name, "Eye", parser) { values[name] = n }
            } else if name.hasSuffix("Unit"), stems.contains(String(name.dropLast(4))) {
                units[String(name.dropLast(4))] = String(decoding: value, as: UTF8.self)
            } else {
                unknownAttribute("Eye", name, value, into: &object.extensions, parser)
            }
        }
        for (stem, value) in values { object[attribute: stem] = Quantity(value: value, unit: units[stem] ?? "") }
        eye = object
    }

    // MARK: Generic pass-through

    private func startGeneric(_ name: ElementName, _ attributes: AttributeView, _ parser: any ElementEventSource) {
        guard genericStack.count < Self.maximumUnknownNesting else {
            fail(parser, .limitExceeded, "elements nested more than \(Self.maximumUnknownNesting) levels deep inside one object")
            return
        }
        let elementName = name.string
        var element = GenericElement(name: elementName)
        for i in 0..<attributes.count {
            element.attributes.append(
                GenericAttribute(
                    name: String(decoding: attributes.name(i), as: UTF8.self),
                    value: String(decoding: attributes.value(i), as: UTF8.self)))
        }
        if genericStack.isEmpty {
            passedThrough[elementName, default: 0] += 1
            let parentName = stack.last.map { "\($0)" } ?? "root"
            warnings.warn(
                "element:\(elementName)@\(parentName)",
                "element <\(elementName.prefix(60))> is not part of healthport's model here; passed through",
                at: self.location(parser))
        }
        genericStack.append(element)
    }

    private func endGeneric(_ parser: any ElementEventSource) {
        guard var finished = genericStack.popLast() else { return }
        if let text = finished.text {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            finished.text = trimmed.isEmpty ? nil : trimmed
        }
        if !genericStack.isEmpty {
            genericStack[genericStack.count - 1].children.append(finished)
            return
        }
        switch stack.last {
        case .healthData?:
            emit(.unknown(UnknownObject(element: finished)), parser)
        case .record?, .hrvList?: record.extensions.elements.append(finished)
        case .correlation?: correlation?.sample.extensions.elements.append(finished)
        case .workout?: workout?.sample.extensions.elements.append(finished)
        case .workoutEvent?: event?.extensions.elements.append(finished)
        case .workoutActivity?: activity?.extensions.elements.append(finished)
        case .workoutStatistics?: pendingStatistics?.extensions.elements.append(finished)
        case .workoutRoute?: route?.sample.extensions.elements.append(finished)
        case .activitySummary?: summary?.extensions.elements.append(finished)
        case .clinicalRecord?: clinical?.extensions.elements.append(finished)
        case .audiogram?: audiogram?.sample.extensions.elements.append(finished)
        case .sensitivityPoint?: point?.extensions.elements.append(finished)
        case .visionPrescription?: prescription?.extensions.elements.append(finished)
        case .rightEye?, .leftEye?: eye?.extensions.elements.append(finished)
        default:
            // Children of ExportDate, Me, MetadataEntry, …: nowhere to keep them.
            warnings.warn(
                "dropped:\(finished.name)", "element <\(finished.name.prefix(60))> inside an element that cannot hold it was ignored",
                at: self.location(parser))
        }
    }
}

/// The parts of a `Record` collected between its start and end tags. Reused for every record:
/// `reset` keeps the arrays' capacity.
struct RecordBuilder {
    var type = ObjectType(identifier: "", kind: .other)
    var sourceName: String? = nil
    var sourceVersion: String? = nil
    var device: Device? = nil
    var creationDate: ExportTimestamp? = nil
    var startDate: ExportTimestamp? = nil
    var endDate: ExportTimestamp? = nil
    var isQuantity = true
    var quantity = Quantity(value: ExportNumber(text: "0", value: 0), unit: "")
    var categoryValue = CategoryValue.notApplicable
    var count = 1
    var metadata: [MetadataEntry] = []
    var beats: [InstantaneousBeatsPerMinute] = []
    var extensions = Extensions()

    mutating func reset() {
        sourceName = nil
        sourceVersion = nil
        device = nil
        creationDate = nil
        startDate = nil
        endDate = nil
        count = 1
        categoryValue = .notApplicable
        metadata.removeAll(keepingCapacity: true)
        beats.removeAll(keepingCapacity: true)
        if !extensions.isEmpty { extensions = Extensions() }
    }
}

extension SampleAttributes {
    func with(type: ObjectType) -> SampleAttributes {
        var copy = self
        copy.sampleType = type
        return copy
    }
}
