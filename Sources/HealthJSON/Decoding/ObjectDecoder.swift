import HealthModel

/// Reads healthport's own JSON object schema (`healthport-formats(5)`) back into the model: the
/// inverse of the NDJSON writer, so that the store, and later NDJSON input, hold exactly what an
/// export held — uuids, numbers' spellings and dates' offsets included.
///
/// Strict: a member of the wrong JSON type, or a required member missing, is an error naming the
/// member, never a silent default.
public enum ObjectDecoder {
    /// A JSON object that does not fit the schema.
    public struct SchemaError: Error, Sendable, CustomStringConvertible {
        public var message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    /// Decodes one object line (anything but the `"kind":"export"` header).
    public static func decode(_ bytes: [UInt8]) throws -> HealthObject {
        try decode(try parse(bytes))
    }

    /// The JSON value of bytes a decoder reads whole (an object line, a device, metadata): text
    /// that is not JSON is a `SchemaError` like any other misfit, so every decoder of bytes
    /// throws the one type.
    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw SchemaError("invalid JSON: \(error)")
        }
    }

    public static func decode(_ value: JSONValue) throws -> HealthObject {
        let o = Members(value, path: "")
        guard let kind = try o.string("kind") else { throw SchemaError("missing member 'kind'") }
        switch kind {
        case "quantitySample": return .quantitySample(try quantitySample(o))
        case "categorySample": return .categorySample(try categorySample(o))
        case "correlation":
            var members: [CorrelatedSample] = []
            for (i, item) in try o.array("objects").enumerated() {
                let m = Members(item, path: "objects[\(i)].")
                switch try m.string("kind") {
                case "quantitySample": members.append(.quantity(try quantitySample(m)))
                case "categorySample": members.append(.category(try categorySample(m)))
                default: throw SchemaError("objects[\(i)]: a correlation holds quantity and category samples")
                }
            }
            return .correlation(Correlation(sample: try sample(o, kind: .correlation), objects: members))
        case "workout": return .workout(try workout(o))
        case "activitySummary": return .activitySummary(try activitySummary(o))
        case "clinicalRecord": return .clinicalRecord(try clinicalRecord(o))
        case "audiogram": return .audiogram(try audiogram(o))
        case "visionPrescription": return .visionPrescription(try visionPrescription(o))
        case "electrocardiogram": return .electrocardiogram(try electrocardiogram(o))
        case "unknown":
            guard let element = o.value("element") else { throw SchemaError("missing member 'element'") }
            return .unknown(UnknownObject(uuid: try o.requiredUUID("uuid"), element: try genericElement(Members(element, path: "element."))))
        default:
            throw SchemaError("unknown kind '\(kind.prefix(40))'")
        }
    }

    /// Decodes a device object (`ModelJSON.encode`).
    public static func decodeDevice(_ bytes: [UInt8]) throws -> Device {
        try device(Members(try parse(bytes), path: "device."))
    }

    /// Decodes the `"kind":"export"` header line.
    public static func decodeHeader(_ value: JSONValue) throws -> ExportHeader {
        let o = Members(value, path: "")
        var header = ExportHeader()
        header.locale = try o.string("locale")
        header.exportDate = try o.date("exportDate")
        header.exportVersion = try o.int("exportVersion")
        header.timeZone = try o.string("timeZone")
        if let name = try o.string("platform") {
            guard let platform = ExportPlatform(rawValue: name) else { throw SchemaError("platform: not a platform healthport knows: \(name)") }
            header.platform = platform
        }
        if let me = o.value("characteristics") {
            let m = Members(me, path: "characteristics.")
            var c = Characteristics()
            for (key, value) in try m.members() {
                guard case .string(let text) = value else { throw SchemaError("characteristics.\(key): expected a string") }
                if let field = Characteristics.fields.first(where: { $0.name == key }) {
                    c[keyPath: field.keyPath] = text
                } else {
                    c.other.append(GenericAttribute(name: key, value: text))
                }
            }
            header.characteristics = c
        }
        if let priority = o.value("healthConnectPriority") {
            header.healthConnectPriority = try healthConnectPriority(Members(priority, path: "healthConnectPriority."))
        }
        return header
    }

    /// A Health Connect export's priority list: per category (by the names
    /// `HealthConnectPriority.Category.name` gives), its apps' package names, highest priority
    /// first. An unknown category is a schema error, not a list silently dropped.
    static func healthConnectPriority(_ o: Members) throws -> HealthConnectPriority {
        var apps: [HealthConnectPriority.Category: [String]] = [:]
        for (key, value) in try o.members() {
            guard let category = HealthConnectPriority.Category(name: key) else { throw SchemaError("\(o.path)\(key): not a Health Connect category") }
            guard case .array(let list) = value else { throw SchemaError("\(o.path)\(key): expected an array") }
            apps[category] = try list.map { element in
                guard case .string(let app) = element else { throw SchemaError("\(o.path)\(key): expected package names") }
                return app
            }
        }
        return HealthConnectPriority(apps: apps)
    }

    // MARK: Kinds

    package static func sample(_ o: Members, kind: ObjectType.Kind) throws -> SampleAttributes {
        let typeName = try o.requiredString("sampleType")
        let type: ObjectType
        switch kind {
        case .quantity, .category, .correlation, .other: type = ObjectType(recordType: typeName)
        default: type = ObjectType(identifier: typeName, kind: kind)
        }
        var s = SampleAttributes(
            uuid: try o.requiredUUID("uuid"), sampleType: type,
            sourceRevision: SourceRevision(source: Source(name: "")),
            startDate: try o.requiredDate("startDate"), endDate: try o.requiredDate("endDate"))
        if let revision = o.value("sourceRevision") {
            let r = Members(revision, path: o.path + "sourceRevision.")
            guard let source = r.value("source") else { throw SchemaError("\(r.path)source: missing") }
            let fields = Members(source, path: r.path + "source.")
            s.sourceRevision = SourceRevision(
                source: Source(name: try fields.requiredString("name"), bundleIdentifier: try fields.string("bundleIdentifier")),
                version: try r.string("version"))
        }
        if let device = o.value("device") { s.device = try self.device(Members(device, path: o.path + "device.")) }
        s.creationDate = try o.date("creationDate")
        s.metadata = try metadata(o)
        s.extensions = try extensions(o)
        return s
    }

    /// A device's creation date as the model keeps it (Apple's text): ISO 8601 as the writer
    /// prints it is turned back; anything else (a store written before, odd text) is kept.
    package static func deviceCreationDate(_ text: String) -> String {
        guard let date = ExportTimestamp.parse(text), date.iso8601 == text else { return text }
        return date.exportText
    }

    package static func device(_ o: Members) throws -> Device {
        Device(
            name: try o.string("name"), manufacturer: try o.string("manufacturer"), model: try o.string("model"),
            hardwareVersion: try o.string("hardwareVersion"), firmwareVersion: try o.string("firmwareVersion"),
            softwareVersion: try o.string("softwareVersion"), localIdentifier: try o.string("localIdentifier"),
            udiDeviceIdentifier: try o.string("udiDeviceIdentifier"), creationDate: try o.string("creationDate").map(deviceCreationDate),
            unparsedDescription: try o.string("description"))
    }

    package static func quantitySample(_ o: Members) throws -> QuantitySample {
        var q = QuantitySample(
            sample: try sample(o, kind: .quantity), quantity: try o.requiredQuantity("quantity"))
        q.count = try o.int("count") ?? 1
        if o.value("instantaneousBeatsPerMinute") != nil {
            for (i, item) in try o.array("instantaneousBeatsPerMinute").enumerated() {
                let b = Members(item, path: o.path + "instantaneousBeatsPerMinute[\(i)].")
                var beat = InstantaneousBeatsPerMinute(bpm: try b.requiredNumber("bpm"), time: try b.requiredString("time"))
                if let text = try b.string("date") {
                    // With hundredths: 2020-12-06T11:26:02.34-08:00.
                    var whole = text
                    if text.utf8.count == 28, Array(text.utf8)[19] == UInt8(ascii: ".") {
                        let bytes = Array(text.utf8)
                        beat.hundredths = Int(String(decoding: bytes[20..<22], as: UTF8.self))
                        whole = String(decoding: bytes[0..<19] + bytes[22...], as: UTF8.self)
                    }
                    guard let date = ExportTimestamp.parse(whole) else { throw SchemaError("\(b.path)date: invalid date '\(text.prefix(40))'") }
                    beat.date = date
                }
                q.instantaneousBeatsPerMinute.append(beat)
            }
        }
        return q
    }

    package static func categorySample(_ o: Members) throws -> CategorySample {
        CategorySample(
            sample: try sample(o, kind: .category),
            value: CategoryValue(rawValue: try o.int("value"), name: try o.string("valueName")))
    }

    package static func workout(_ o: Members) throws -> Workout {
        var w = Workout(
            sample: try sample(o, kind: .workout),
            workoutActivityType: WorkoutActivityType(name: try o.requiredString("workoutActivityType")))
        w.duration = try o.quantity("duration")
        w.totalDistance = try o.quantity("totalDistance")
        w.totalEnergyBurned = try o.quantity("totalEnergyBurned")
        w.workoutEvents = try events(o)
        for (i, item) in try o.optionalArray("workoutActivities").enumerated() {
            let a = Members(item, path: o.path + "workoutActivities[\(i)].")
            w.workoutActivities.append(
                WorkoutActivity(
                    uuid: try a.requiredString("uuid"), startDate: try a.requiredDate("startDate"), endDate: try a.date("endDate"),
                    duration: try a.quantity("duration"), metadata: try metadata(a), workoutEvents: try events(a),
                    statistics: try statistics(a), extensions: try extensions(a)))
        }
        w.statistics = try statistics(o)
        for (i, item) in try o.optionalArray("routes").enumerated() {
            let r = Members(item, path: o.path + "routes[\(i)].")
            var route = WorkoutRoute(sample: try sample(r, kind: .workoutRoute), fileReference: try r.string("fileReference"))
            for (j, point) in try r.optionalArray("locations").enumerated() {
                let l = Members(point, path: r.path + "locations[\(j)].")
                var location = RouteLocation(date: try l.date("date"))
                for number in RouteLocation.numbers { location[keyPath: number.keyPath] = try l.number(number.name) }
                route.locations.append(location)
            }
            w.routes.append(route)
        }
        return w
    }

    package static func events(_ o: Members) throws -> [WorkoutEvent] {
        try o.optionalArray("workoutEvents").enumerated().map { i, item in
            let e = Members(item, path: o.path + "workoutEvents[\(i)].")
            return WorkoutEvent(
                type: WorkoutEventType(name: try e.requiredString("type")), date: try e.requiredDate("date"),
                duration: try e.quantity("duration"), metadata: try metadata(e), extensions: try extensions(e))
        }
    }

    package static func statistics(_ o: Members) throws -> [WorkoutStatistics] {
        try o.optionalArray("statistics").enumerated().map { i, item in
            let s = Members(item, path: o.path + "statistics[\(i)].")
            return WorkoutStatistics(
                quantityType: ObjectType(recordType: try s.requiredString("quantityType")), startDate: try s.requiredDate("startDate"),
                endDate: try s.requiredDate("endDate"), average: try s.number("average"), minimum: try s.number("minimum"),
                maximum: try s.number("maximum"), sum: try s.number("sum"), unit: try s.string("unit"),
                extensions: try extensions(s))
        }
    }

    package static func activitySummary(_ o: Members) throws -> ActivitySummary {
        var a = ActivitySummary(uuid: try o.requiredUUID("uuid"))
        if let text = try o.string("dateComponents") {
            guard let day = CalendarDate.parse(text) else { throw SchemaError("dateComponents: invalid date '\(text.prefix(40))'") }
            a.dateComponents = day
        }
        for measure in ActivitySummary.measures {
            let value = try o.quantity(measure.name)
            let goal = try o.quantity(measure.goalName)
            a[keyPath: measure.value] = value?.value
            a[keyPath: measure.goal] = goal?.value
            if measure.unitIsExported { a.activeEnergyBurnedUnit = value?.unit ?? goal?.unit }
        }
        a.extensions = try extensions(o)
        return a
    }

    package static func clinicalRecord(_ o: Members) throws -> ClinicalRecord {
        guard let resource = o.value("fhirResource") else { throw SchemaError("missing member 'fhirResource'") }
        let f = Members(resource, path: "fhirResource.")
        var c = ClinicalRecord(uuid: try o.requiredUUID("uuid"), fhirResourceType: try f.requiredString("resourceType"))
        // The written type stands where it is one the resource type can have (an Observation's
        // vital sign or lab result, told from its resource when it was read); earlier versions
        // wrote `HKClinicalTypeIdentifierPatientRecord`, which HealthKit does not define.
        if let type = try o.string("clinicalType"),
            let candidate = ObjectType.clinicalCandidates(fhirResourceType: c.fhirResourceType).first(where: { $0.identifier == type })
        {
            c.clinicalType = candidate
        }
        c.receivedDate = try o.date("receivedDate")
        if let revision = o.value("sourceRevision"), let source = revision["source"] {
            c.sourceName = try Members(source, path: "sourceRevision.source.").string("name")
        }
        c.identifier = try f.string("identifier")
        c.sourceURL = try f.string("sourceURL")
        c.fhirVersion = try f.string("fhirVersion")
        c.resourceFilePath = try f.string("resourceFilePath")
        c.extensions = try extensions(o)
        return c
    }

    package static func audiogram(_ o: Members) throws -> Audiogram {
        var a = Audiogram(sample: try sample(o, kind: .audiogram))
        for (i, item) in try o.optionalArray("sensitivityPoints").enumerated() {
            let p = Members(item, path: "sensitivityPoints[\(i)].")
            var point = SensitivityPoint()
            point.frequency = try p.quantity("frequency")
            point.leftEarSensitivity = try p.quantity("leftEarSensitivity")
            point.rightEarSensitivity = try p.quantity("rightEarSensitivity")
            point.leftEarMasked = try p.maskedFlag("leftEarMasked")
            point.rightEarMasked = try p.maskedFlag("rightEarMasked")
            for bound in SensitivityPoint.clampingBounds { point[keyPath: bound.keyPath] = try p.number(bound.name) }
            point.extensions = try extensions(p)
            a.sensitivityPoints.append(point)
        }
        return a
    }

    package static func visionPrescription(_ o: Members) throws -> VisionPrescription {
        var v = VisionPrescription(uuid: try o.requiredUUID("uuid"))
        if let type = try o.string("sampleType") { v.sampleType = ObjectType(identifier: type, kind: .visionPrescription) }
        v.prescriptionType = try o.string("prescriptionType")
        v.dateIssued = try o.date("dateIssued")
        v.expirationDate = try o.date("expirationDate")
        v.brand = try o.string("brand")
        for key in ["rightEye", "leftEye"] {
            guard let value = o.value(key) else { continue }
            let e = Members(value, path: key + ".")
            var lens = LensSpecification()
            for field in LensSpecification.fields {
                lens[attribute: field.attribute] = try e.quantity(field.property)
            }
            lens.extensions = try extensions(e)
            if key == "rightEye" { v.rightEye = lens } else { v.leftEye = lens }
        }
        v.attachments = try o.optionalArray("attachments").enumerated().map { i, item in
            guard case .string(let s) = item else { throw SchemaError("attachments[\(i)]: expected a string") }
            return s
        }
        v.metadata = try metadata(o)
        v.extensions = try extensions(o)
        return v
    }

    package static func electrocardiogram(_ o: Members) throws -> Electrocardiogram {
        var e = Electrocardiogram(file: try o.requiredString("file"))
        e.uuid = try o.requiredUUID("uuid")
        e.recordedDate = try o.date("startDate")
        e.classification = try o.string("classification")
        e.classificationRawValue = try o.int("classificationRawValue")
        e.symptoms = try o.string("symptoms")
        e.softwareVersion = try o.string("softwareVersion")
        e.device = try o.string("device")
        e.samplingFrequency = try o.number("samplingFrequency")?.value
        e.lead = try o.string("lead")
        e.unit = try o.string("unit")
        e.voltages = try o.optionalArray("voltages").enumerated().map { i, item in
            guard case .number(let text) = item, let value = Double(text) else { throw SchemaError("voltages[\(i)]: expected a number") }
            return value
        }
        return e
    }

    // MARK: Shared parts

    /// Metadata; a key whose value is an array was printed several times (quirk Q8). String
    /// values are interpreted as the reader interprets exported text; healthport writes metadata
    /// dates in ISO 8601, which are read back as dates.
    package static func metadata(_ o: Members) throws -> Metadata {
        guard let value = o.value("metadata") else { return Metadata() }
        let m = Members(value, path: o.path + "metadata.")
        // A key's values are kept together at its first place, as the writer prints them: a JSON
        // text that repeats a key elsewhere (healthport never writes one) reads the same as the
        // one the writer would print for it (found by Scripts/fuzz.sh json).
        var order: [String] = []
        var values: [String: [MetadataValue]] = [:]
        for (key, value) in try m.members() {
            if values[key] == nil { order.append(key) }
            if case .array(let items) = value {
                for item in items { values[key, default: []].append(try metadataValue(item, key: key)) }
            } else {
                values[key, default: []].append(try metadataValue(value, key: key))
            }
        }
        return Metadata(order.flatMap { key in values[key, default: []].map { MetadataEntry(key: key, value: $0) } })
    }

    package static func metadataValue(_ value: JSONValue, key: String) throws -> MetadataValue {
        switch value {
        case .number(let text):
            guard let number = ExportNumber.parse(text) else { throw SchemaError("metadata.\(key): invalid number") }
            // Earlier versions wrote any number-shaped value as a number, whatever its key.
            return MetadataValue.number(number).held(under: key)
        case .string(let text):
            if text.utf8.count == 25, Array(text.utf8)[10] == UInt8(ascii: "T"), let date = ExportTimestamp.parse(text) {
                return .date(date)
            }
            return MetadataValue.interpret(text, key: key)
        case .object:
            // Earlier versions wrote every `number unit` value as a quantity, whatever its key.
            return MetadataValue.quantity(try Members(.object([("q", value)]), path: "metadata.").requiredQuantity("q")).held(under: key)
        default:
            throw SchemaError("metadata.\(key): expected a string, number or quantity")
        }
    }

    package static func extensions(_ o: Members) throws -> Extensions {
        guard let value = o.value("extensions") else { return .none }
        let e = Members(value, path: o.path + "extensions.")
        var result = Extensions()
        if let attributes = e.value("attributes") {
            for (name, value) in try Members(attributes, path: e.path + "attributes.").members() {
                guard case .string(let text) = value else { throw SchemaError("\(e.path)attributes.\(name): expected a string") }
                result.attributes.append(GenericAttribute(name: name, value: text))
            }
        }
        result.elements = try e.optionalArray("elements").enumerated().map { i, item in
            try genericElement(Members(item, path: e.path + "elements[\(i)]."))
        }
        return result
    }

    package static func genericElement(_ o: Members) throws -> GenericElement {
        var element = GenericElement(name: try o.requiredString("name"))
        if let attributes = o.value("attributes") {
            for (name, value) in try Members(attributes, path: o.path + "attributes.").members() {
                guard case .string(let text) = value else { throw SchemaError("\(o.path)attributes.\(name): expected a string") }
                element.attributes.append(GenericAttribute(name: name, value: text))
            }
        }
        element.text = try o.string("text")
        element.children = try o.optionalArray("children").enumerated().map { i, item in
            try genericElement(Members(item, path: o.path + "children[\(i)]."))
        }
        return element
    }

    /// Typed access to one JSON object's members, with errors that name the member's path.
    package struct Members {
        let value: JSONValue
        let path: String

        init(_ value: JSONValue, path: String) {
            self.value = value
            self.path = path
        }

        func value(_ key: String) -> JSONValue? {
            guard let v = value[key] else { return nil }
            if case .null = v { return nil }
            return v
        }

        func members() throws -> [(key: String, value: JSONValue)] {
            guard case .object(let members) = value else { throw SchemaError("\(path.isEmpty ? "" : String(path.dropLast()) + ": ")expected an object") }
            return members
        }

        func fail(_ key: String, _ what: String) -> SchemaError { SchemaError("\(path)\(key): expected \(what)") }

        func string(_ key: String) throws -> String? {
            guard let v = value(key) else { return nil }
            guard case .string(let s) = v else { throw fail(key, "a string") }
            return s
        }

        /// A Boolean; the strings `"1"` and `"0"` too, as earlier versions wrote audiogram masking.
        func maskedFlag(_ key: String) throws -> Bool? {
            guard let v = value(key) else { return nil }
            switch v {
            case .bool(let b): return b
            case .string(let s): if let flag = SensitivityPoint.maskedFlag(exported: s) { return flag }
            default: break
            }
            throw fail(key, "true or false")
        }

        func requiredString(_ key: String) throws -> String {
            guard let s = try string(key) else { throw SchemaError("\(path)\(key): missing") }
            return s
        }

        func number(_ key: String) throws -> ExportNumber? {
            guard let v = value(key) else { return nil }
            guard case .number(let text) = v, let number = ExportNumber.parse(text) else { throw fail(key, "a number") }
            return number
        }

        func requiredNumber(_ key: String) throws -> ExportNumber {
            guard let n = try number(key) else { throw SchemaError("\(path)\(key): missing") }
            return n
        }

        func int(_ key: String) throws -> Int? {
            guard let v = value(key) else { return nil }
            guard case .number(let text) = v, let number = Int(text) else { throw fail(key, "an integer") }
            return number
        }

        func date(_ key: String) throws -> ExportTimestamp? {
            guard let text = try string(key) else { return nil }
            guard let date = ExportTimestamp.parse(text) else { throw fail(key, "a date (yyyy-MM-ddTHH:mm:ss±hh:mm)") }
            return date
        }

        func requiredDate(_ key: String) throws -> ExportTimestamp {
            guard let d = try date(key) else { throw SchemaError("\(path)\(key): missing") }
            return d
        }

        func requiredUUID(_ key: String) throws -> ObjectUUID {
            let text = try requiredString(key)
            guard let uuid = ObjectUUID(uuidString: text) else { throw fail(key, "a uuid") }
            return uuid
        }

        func quantity(_ key: String) throws -> Quantity? {
            guard let v = value(key) else { return nil }
            let q = Members(v, path: path + key + ".")
            guard case .object = v else { throw fail(key, "a quantity {\"value\":…,\"unit\":…}") }
            return Quantity(value: try q.requiredNumber("value"), unit: try q.string("unit") ?? "")
        }

        func requiredQuantity(_ key: String) throws -> Quantity {
            guard let q = try quantity(key) else { throw SchemaError("\(path)\(key): missing") }
            return q
        }

        func array(_ key: String) throws -> [JSONValue] {
            guard let v = value(key) else { throw SchemaError("\(path)\(key): missing") }
            guard case .array(let items) = v else { throw fail(key, "an array") }
            return items
        }

        func optionalArray(_ key: String) throws -> [JSONValue] {
            value(key) == nil ? [] : try array(key)
        }
    }
}
