import Foundation
import HealthModel

/// Turns libxml2's SAX events into model objects, one top-level element at a time.
///
/// State is one stack of open elements, each with the object it builds (`OpenElement`); a
/// finished element is handed to the one below it, or to the sink at top level. Memory therefore holds the current
/// object only (a workout with its events and routes, at most), plus the interners.
///
/// Element kinds and attributes this model does not know are not errors: they are kept as
/// `GenericElement`s / `GenericAttribute`s in the enclosing object's `extensions` (or as an
/// `UnknownObject` at top level), and warned about once per name.
final class ExportMapper: ElementEventHandler {
    let sink: any ObjectSink
    let warnings: WarningCollector
    let file: String
    let member: String?
    /// Where a synthetic root was inserted (fragments), to correct libxml2's columns.
    @exclusivity(unchecked) var syntheticRootPosition: (line: Int, column: Int)?

    @exclusivity(unchecked) var header = ExportHeader()
    /// The DTD's export version, set by the reader before the first element.
    var exportVersion: Int? {
        get { header.exportVersion }
        set { header.exportVersion = newValue }
    }
    @exclusivity(unchecked) var headerDelivered = false
    /// The header as the sink got it (a parallel read hands chunk 0's to the real sink).
    @exclusivity(unchecked) var deliveredHeader: ExportHeader? = nil
    /// Whether the header went to the sink because a top-level object began (not at the end,
    /// which in a parallel read's chunk may be a synthetic end).
    @exclusivity(unchecked) var headerDeliveredByElement = false
    var hasDeliveredHeader: Bool { headerDelivered }
    /// Derives uuids; a parallel read journals it in each chunk and carries it across.
    @exclusivity(unchecked) var assigner = ObjectIdentityAssigner()
    /// Added to libxml2's line numbers: a parallel read parses a chunk after a copy of the
    /// prolog, so its lines are not the file's.
    @exclusivity(unchecked) var lineOffset = 0
    /// libxml2's lines that `lineOffset` does not move: those of the copied prolog, which are
    /// the file's own.
    @exclusivity(unchecked) var prologLines = 0

    // Interners for the values that repeat.
    /// Record types, with whether healthport knows them: asked once per type, not per record
    /// (the catalogue lookup hashed the identifier for every record: 2 % of a conversion).
    let recordTypes = ByteInterner<(type: ObjectType, isKnown: Bool)> {
        let type = ObjectType(recordType: String(decoding: $0, as: UTF8.self))
        return (type, type.isKnown)
    }
    /// One interner per attribute: each remembers its last two values, and a record's source
    /// name, version and unit would otherwise evict each other.
    let sourceNames = ByteInterner<String> { String(decoding: $0, as: UTF8.self) }
    let sourceVersions = ByteInterner<String> { String(decoding: $0, as: UTF8.self) }
    let units = ByteInterner<String> { String(decoding: $0, as: UTF8.self) }
    let metadataKeys = ByteInterner<String> { String(decoding: $0, as: UTF8.self) }
    let devices = ByteInterner<Device> { Device.parse(description: String(decoding: $0, as: UTF8.self)) }
    let categoryValues = ByteInterner<CategoryValue> { CategoryValue.interpret(String(decoding: $0, as: UTF8.self)) }
    /// Device descriptions after their per-record address (`0x…`), which would defeat interning.
    let devicesAfterAddress = ByteInterner<Device> { rest in
        Device.parse(description: "<<HKDevice: 0x0" + String(decoding: rest, as: UTF8.self))
    }

    // The open elements, root first.
    @exclusivity(unchecked) var stack: [OpenElement] = []
    @exclusivity(unchecked) var genericStack: [GenericElement] = []
    @exclusivity(unchecked) var nestedElementCount = 0
    static let maximumElementsPerObject = 5_000_000
    /// How deep unknown elements may nest inside one object. libxml2's own depth limit does not
    /// apply to SAX parsing, and identity, output and release all recurse over the kept tree:
    /// 100,000 levels overflowed the stack (found by a hostile-input test). Real exports nest
    /// four levels at most.
    static let maximumUnknownNesting = 64

    /// Per open element (by its place on `stack`), the index of its metadata once it holds more
    /// than `metadataScanLimit` entries (`MetadataIndex`); dropped when the element ends.
    @exclusivity(unchecked) var metadataIndexes: [MetadataIndex?] = []

    // The record being read (the hot path's reused builder; `.element(.record)` on the stack).
    @exclusivity(unchecked) var record = RecordBuilder()
    @exclusivity(unchecked) var recordOpen = false

    /// Objects handed to the sink, by kind, for the read summary.
    @exclusivity(unchecked) var objectCount = 0
    /// Elements and attributes passed through generically, by name.
    @exclusivity(unchecked) var passedThrough: [String: Int] = [:]

    /// Type identifiers to build; top-level objects of other types are skipped unbuilt.
    var typeFilter: Set<String>? = nil {
        didSet {
            let filter = typeFilter
            selectedRecordTypes = ByteInterner { bytes in
                filter?.contains(ObjectType(recordType: String(decoding: bytes, as: UTF8.self)).identifier) ?? true
            }
        }
    }
    /// Whether a `Record`'s `type` bytes name a selected type: asked once per distinct type, not
    /// hashed as a `String` for every record (Set lookups were 5% of a one-type conversion).
    private(set) var selectedRecordTypes = ByteInterner<Bool> { _ in true }
    /// Reads an Observation's category from its FHIR resource (`nil`: the input has no side
    /// files, and Observations stay lab results).
    var clinicalTypes: ClinicalTypeResolver? = nil
    /// Depth inside a skipped top-level element (0: not skipping).
    @exclusivity(unchecked) var skipDepth = 0

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

    func fail(_ parser: any ElementEventSource, _ code: ExportError.Code, _ message: String) {
        parser.stop(with: ExportError(code, message, at: location(parser)))
    }

    /// A value for a message: its length only.
    ///
    /// Says where, never what: the value is health data (a weight, a date), and error messages
    /// end up in terminals, logs and bug reports. Its length is shown, to help find it.
    static func quoted(_ bytes: UnsafeRawBufferPointer) -> String {
        "(\(bytes.count) bytes, not shown)"
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
        let parent = stack.last?.kind
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
            stack.append(.element(.healthData))
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
                if kind == .record, typeFilter != nil {
                    var selected = false
                    for i in 0..<attributes.count where matches(attributes.name(i), "type") {
                        selected = selectedRecordTypes.value(for: attributes.value(i))
                        break
                    }
                    if !selected {
                        // Skipping an object changes no other uuid: copies share a type.
                        skipDepth = 1
                        return
                    }
                } else if let typeFilter {
                    let identifier = topLevelType(kind, name, attributes)
                    if !typeFilter.contains(identifier), !(kind == .clinicalRecord && wantsObservation(identifier, typeFilter)) {
                        // Skipping an object changes no other uuid: copies share a type.
                        skipDepth = 1
                        return
                    }
                }
            }
        }
        var opened = OpenElement.element(kind)
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
            if let type = passedThroughRecordType(attributes) {
                startPassedThroughRecord(type, name, attributes, parser)
                return
            }
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
            opened = .correlation(
                Correlation(sample: sampleAttributes(attributes, element: "Correlation", parser: parser) { _, _ in false }, objects: []))
        case (.healthData, .workout):
            opened = .workout(startWorkout(attributes, parser))
        case (.workout, .workoutEvent), (.workoutActivity, .workoutEvent):
            if let event = startEvent(attributes, parser) { opened = .workoutEvent(event) }
        case (.workout, .workoutActivity):
            if let activity = startActivity(attributes, parser) { opened = .workoutActivity(activity) }
        case (.workout, .workoutStatistics), (.workoutActivity, .workoutStatistics):
            if let statistics = startStatistics(attributes, parser) { opened = .workoutStatistics(statistics) }
        case (.workout, .workoutRoute):
            opened = .workoutRoute(
                WorkoutRoute(
                    sample: sampleAttributes(attributes, element: "WorkoutRoute", parser: parser) { _, _ in false }.with(type: .workoutRoute)))
        case (.workoutRoute, .fileReference):
            for i in 0..<attributes.count where matches(attributes.name(i), "path") {
                let path = String(decoding: attributes.value(i), as: UTF8.self)
                modifyTop { top in
                    guard case .workoutRoute(var route) = top else { return }
                    top = .element(.workoutRoute)
                    route.fileReference = path
                    top = .workoutRoute(route)
                }
            }
        case (.workoutRoute, .location):
            opened = .location(startLocation(attributes, parser))
        case (.healthData, .activitySummary):
            if let summary = startActivitySummary(attributes, parser) { opened = .activitySummary(summary) }
        case (.healthData, .clinicalRecord):
            opened = .clinicalRecord(startClinicalRecord(attributes, parser))
        case (.healthData, .audiogram):
            opened = .audiogram(
                Audiogram(sample: sampleAttributes(attributes, element: "Audiogram", parser: parser) { _, _ in false }.with(type: .audiogram)))
        case (.audiogram, .sensitivityPoint):
            opened = .sensitivityPoint(startSensitivityPoint(attributes, parser))
        case (.healthData, .visionPrescription):
            opened = .visionPrescription(startVisionPrescription(attributes, parser))
        case (.visionPrescription, .rightEye), (.visionPrescription, .leftEye):
            opened = .eye(startEye(attributes, parser), isRight: kind == .rightEye)
        case (.visionPrescription, .attachment):
            for i in 0..<attributes.count where matches(attributes.name(i), "identifier") {
                let identifier = String(decoding: attributes.value(i), as: UTF8.self)
                modifyTop { top in
                    guard case .visionPrescription(var prescription) = top else { return }
                    top = .element(.visionPrescription)
                    prescription.attachments.append(identifier)
                    top = .visionPrescription(prescription)
                }
            }
        default:
            // Unknown element, or a known one in a place it does not belong: keep it whole.
            startGeneric(name, attributes, parser)
            return
        }
        stack.append(opened)
    }

    /// The element on top of the stack, to change in place.
    @inline(__always)
    func modifyTop(_ body: (inout OpenElement) -> Void) {
        guard !stack.isEmpty else { return }
        body(&stack[stack.count - 1])
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
        guard let finished = stack.popLast() else { return }
        if metadataIndexes.count > stack.count { metadataIndexes.removeSubrange(stack.count...) }
        let parent = stack.last?.kind
        switch finished {
        case .element(.healthData):
            deliverHeader(parser)
        case .element(.record):
            finishRecord(parent: parent, parser)
        case .correlation(var object):
            object.objects.sort { $0.sample.uuid < $1.sample.uuid }
            emit(.correlation(object), parser)
        case .workout(let object):
            emit(.workout(object), parser)
        case .activitySummary(let object):
            emit(.activitySummary(object), parser)
        case .clinicalRecord(let object):
            finishClinicalRecord(object, parser)
        case .audiogram(let object):
            emit(.audiogram(object), parser)
        case .visionPrescription(let object):
            emit(.visionPrescription(object), parser)
        case .workoutEvent, .workoutActivity, .workoutStatistics, .workoutRoute, .location, .sensitivityPoint, .eye:
            modifyTop { $0.adopt(finished) }
        case .element:
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
    func topLevelType(_ kind: ElementKind, _ name: ElementName, _ attributes: AttributeView) -> String {
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

    func deliverHeader(_ parser: any ElementEventSource) {
        guard !headerDelivered else { return }
        headerDelivered = true
        deliveredHeader = header
        do {
            try sink.exportDidBegin(header)
        } catch {
            parser.stop(with: error)
        }
    }

    func emit(_ object: HealthObject, _ parser: any ElementEventSource) {
        var object = object
        assigner.assign(&object)
        deliver(object, parser)
    }

    /// Hands an object whose uuid is set to the sink.
    @inline(__always)
    func deliver(_ object: HealthObject, _ parser: any ElementEventSource) {
        objectCount += 1
        do {
            try sink.consume(object)
        } catch {
            parser.stop(with: error)
        }
    }
}
