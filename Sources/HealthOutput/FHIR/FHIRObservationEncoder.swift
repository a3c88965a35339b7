import HealthJSON
import HealthModel

/// Writes healthport's objects as FHIR R4 Observations, one per line, coded as HealthKitOnFHIR
/// codes them (`FHIRMapping`); the Device resources they refer to collect in `devices.pending`.
///
/// An Observation's id is the object's uuid, its times are the export's (`effectiveDateTime`
/// for an instant, `effectivePeriod` otherwise, each with the offset the export printed), and
/// its value the object's, converted to the table's unit where the table names one. What the
/// table does not map is coded with the HealthKit identifier (`FHIRCodingTally.Coding.fallback`),
/// never dropped.
///
/// The hot path is the quantity sample: everything that depends only on the type (the codes,
/// the category, the unit, the conversion) is rendered to bytes once per type (`TypePlan`) and
/// copied per record, as NDJSON's writer copies its static keys; the plan of the last type seen
/// is checked first, since records come in long runs of one type. See the `fhir` task of
/// `Benchmarks/run.sh` for its cost against NDJSON.
final class FHIRObservationEncoder {
    let mapping: FHIRMapping
    let devices = FHIRDeviceRegistry()
    var tally = FHIRCodingTally()
    /// `,"subject":{"reference":"Patient/…"}` when a Patient is written, else empty.
    var subject: [UInt8] = []

    /// What every Observation of one type shares, rendered once.
    final class TypePlan {
        let coding: FHIRCodingTally.Coding
        /// The codings of the type (a correlation's members become components with them).
        let codings: [FHIRCoding]
        /// `,"category":[…],"code":{…}` (category only when the table has one).
        let head: [UInt8]
        /// The table's unit, for quantities it maps.
        let unit: FHIRUnitMapping?
        /// `,"unit":…,"system":…,"code":…}` of `unit`: the end of every value it writes.
        let unitTail: [UInt8]
        /// The last exported unit seen and its conversion to `unit` (`nil`: not convertible).
        var lastUnit: String? = nil
        var lastConversion: FHIRUnitConversion? = nil
        /// Category types: how the value is coded (`nil`: the fallback's value).
        let valueRule: FHIRMapping.CategoryValueRule?
        let valueEnum: FHIRMapping.ValueEnum?

        init(
            coding: FHIRCodingTally.Coding, codings: [FHIRCoding], categories: [FHIRCoding], unit: FHIRUnitMapping?,
            valueRule: FHIRMapping.CategoryValueRule? = nil, valueEnum: FHIRMapping.ValueEnum? = nil
        ) {
            self.coding = coding
            self.codings = codings
            self.unit = unit
            self.valueRule = valueRule
            self.valueEnum = valueEnum
            let scratch = OutputBuffer(descriptor: -1, capacity: 1024)
            var json = JSONEmitter(scratch)
            FHIRJSON.categories(categories, to: &json)
            json.key("code")
            FHIRJSON.codeableConcept(codings, to: &json)
            // The emitter starts without a comma; every head follows `"status":"final"`.
            head = [0x2C] + scratch.takeBytes()
            if let unit {
                var tail = JSONEmitter(scratch)
                tail.raw("")
                FHIRJSON.unitMembers(unit, to: &tail)
                tail.endObject()
                unitTail = scratch.takeBytes()
            } else {
                unitTail = []
            }
        }

        /// The conversion of a value printed in `exportedUnit` to the table's unit.
        @inline(__always)
        func conversion(from exportedUnit: String) -> FHIRUnitConversion? {
            if let lastUnit, lastUnit == exportedUnit { return lastConversion }
            lastUnit = exportedUnit
            lastConversion = unit.flatMap { FHIRUnitConversion(from: exportedUnit, to: $0.healthKitUnit) }
            return lastConversion
        }
    }

    private var plans: [String: TypePlan] = [:]
    private var lastIdentifier = ""
    private var lastPlan: TypePlan? = nil
    /// Metadata keys rendered as `{"url":"…/key",` once each.
    private var metadataKeys: [String: [UInt8]] = [:]

    init(mapping: FHIRMapping = .healthKitOnFHIR) {
        self.mapping = mapping
    }

    // MARK: Plans

    /// The plan of a sample type (quantity, category, correlation or anything else sampled).
    @inline(__always)
    func plan(_ type: ObjectType) -> TypePlan {
        if let lastPlan, lastIdentifier == type.identifier { return lastPlan }
        let plan = plans[type.identifier] ?? makePlan(type)
        lastIdentifier = type.identifier
        lastPlan = plan
        return plan
    }

    private func makePlan(_ type: ObjectType) -> TypePlan {
        let identifier = type.identifier
        let plan: TypePlan
        let table = identifier == ObjectType.workout.identifier ? mapping.workout
            : identifier == Electrocardiogram.sampleType.identifier ? mapping.electrocardiogram.type : nil
        if let table {
            plan = TypePlan(
                coding: table.hasLOINC ? .loinc : .healthKit, codings: table.codings, categories: table.categories, unit: nil)
        } else if let table = mapping.quantityTypes[identifier] ?? mapping.correlationTypes[identifier] {
            plan = TypePlan(
                coding: table.hasLOINC ? .loinc : .healthKit, codings: table.codings, categories: table.categories, unit: table.unit)
        } else if let table = mapping.categoryTypes[identifier] {
            let rule = mapping.categoryValueRules[identifier]
            plan = TypePlan(
                coding: table.hasLOINC ? .loinc : .healthKit, codings: table.codings, categories: table.categories, unit: nil,
                valueRule: rule, valueEnum: rule?.valueEnum.flatMap { mapping.valueEnums[$0] })
        } else {
            plan = TypePlan(coding: .fallback, codings: [.healthKit(identifier)], categories: [], unit: nil)
        }
        plans[identifier] = plan
        return plan
    }

    // MARK: Objects

    /// Writes one object's Observation line; `false` for a clinical record, which is not an
    /// Observation of healthport's making (the writer passes its own resource through).
    func write(_ object: HealthObject, to out: OutputBuffer) -> Bool {
        switch object {
        case .quantitySample(let q): write(q, to: out)
        case .categorySample(let c): write(c, to: out)
        case .correlation(let c): write(c, to: out)
        case .workout(let w): write(w, to: out)
        case .activitySummary(let a): write(a, to: out)
        case .audiogram(let a): write(a, to: out)
        case .visionPrescription(let v): write(v, to: out)
        case .electrocardiogram(let e): write(e, to: out)
        case .unknown(let u): write(u, to: out)
        case .clinicalRecord: return false
        }
        return true
    }

    @inline(__always)
    func write(_ q: QuantitySample, to out: OutputBuffer) {
        let plan = begin(q.sample, to: out)
        out.append(",\"valueQuantity\":")
        writeQuantity(q.quantity, plan: plan, to: out)
        end("quantitySample", metadata: q.sample.metadata, plan: plan, to: out)
    }

    func write(_ c: CategorySample, to out: OutputBuffer) {
        let plan = begin(c.sample, to: out)
        var json = JSONEmitter(continuing: out)
        writeCategoryValue(c, plan: plan, key: true, to: &json)
        if let rule = plan.valueRule, !rule.metadataComponents.isEmpty {
            writeMetadataComponents(rule.metadataComponents, of: c.sample.metadata, to: &json)
        }
        end("categorySample", metadata: c.sample.metadata, plan: plan, to: out)
    }

    // MARK: Parts

    /// `{"resourceType":"Observation","id":"…","status":"final"`, the head of `type`'s plan, and
    /// the subject: how every Observation begins. Returns the plan, for the rest of it.
    @inline(__always)
    func begin(_ uuid: ObjectUUID, type: ObjectType, to out: OutputBuffer) -> TypePlan {
        let plan = self.plan(type)
        out.append("{\"resourceType\":\"Observation\",\"id\":\"")
        let p = out.reserve(ObjectUUID.textLength)
        uuid.format(into: p)
        out.advance(by: ObjectUUID.textLength)
        out.append("\",\"status\":\"final\"")
        out.append(contentsOf: plan.head)
        if !subject.isEmpty { out.append(contentsOf: subject) }
        return plan
    }

    /// Ends an Observation: healthport's metadata extension (none when `metadata` is empty), the
    /// closing brace and the line break; and counts it, under its object kind, by how its type
    /// was coded (`FHIRCodingTally`).
    @inline(__always)
    func end(_ kind: String, metadata: Metadata = Metadata(), plan: TypePlan, to out: OutputBuffer) {
        writeMetadata(metadata, to: out)
        out.append("}\n")
        tally.add(kind: kind, plan.coding)
    }

    /// A sample's Observation begun (`begin`), then its times and its device.
    @inline(__always)
    func begin(_ s: SampleAttributes, to out: OutputBuffer) -> TypePlan {
        let plan = begin(s.uuid, type: s.sampleType, to: out)
        writeSampleTimesAndDevice(s, to: out)
        return plan
    }

    /// `effectiveDateTime` when the sample is an instant, else `effectivePeriod`; `issued` (when
    /// the sample was saved); `device`.
    @inline(__always)
    func writeSampleTimesAndDevice(_ s: SampleAttributes, to out: OutputBuffer) {
        writeEffective(start: s.startDate, end: s.endDate, to: out)
        if let creation = s.creationDate {
            out.append(",\"issued\":\"")
            out.appendISO8601(creation)
            out.append(0x22)
        }
        out.append(",\"device\":{\"reference\":\"Device/")
        let id = devices.sourceID(s.sourceRevision, device: s.device)
        let p = out.reserve(ObjectUUID.textLength)
        id.format(into: p)
        out.advance(by: ObjectUUID.textLength)
        out.append("\"}")
    }

    @inline(__always)
    func writeEffective(start: ExportTimestamp, end: ExportTimestamp, to out: OutputBuffer) {
        if start == end {
            out.append(",\"effectiveDateTime\":\"")
            out.appendISO8601(start)
            out.append(0x22)
        } else {
            out.append(",\"effectivePeriod\":{\"start\":\"")
            out.appendISO8601(start)
            out.append("\",\"end\":\"")
            out.appendISO8601(end)
            out.append("\"}")
        }
    }

    /// A quantity in the table's unit (converted), or as exported when the table has no unit
    /// for the type or the exported unit does not convert to it.
    @inline(__always)
    func writeQuantity(_ quantity: Quantity, plan: TypePlan, to out: OutputBuffer) {
        if !plan.unitTail.isEmpty, let conversion = plan.conversion(from: quantity.unit) {
            out.append("{\"value\":")
            conversion.append(quantity.value, to: out)
            out.append(contentsOf: plan.unitTail)
        } else {
            var json = JSONEmitter(out)
            FHIRJSON.exportedQuantity(quantity, to: &json)
        }
    }

    /// A category sample's value: the enum's coding (HealthKitOnFHIR), the type's identifier for
    /// types whose value carries nothing, or the exported value name (fallback).
    func writeCategoryValue(_ c: CategorySample, plan: TypePlan, key: Bool, to json: inout JSONEmitter) {
        if let valueEnum = plan.valueEnum, let raw = c.value.rawValue, let coding = valueEnum.coding(rawValue: raw) {
            if key { json.key("valueCodeableConcept") }
            FHIRJSON.codeableConcept([coding], to: &json)
        } else if let rule = plan.valueRule, rule.valueEnum == nil {
            if key { json.key("valueString") }
            json.string(c.sample.sampleType.identifier)
        } else if let name = c.value.name {
            if key { json.key("valueString") }
            json.string(name)
        } else {
            if key { json.key("valueInteger") }
            json.int(c.value.rawValue ?? 0)
        }
    }

    /// The components HealthKitOnFHIR writes from a category sample's metadata: a threshold as
    /// a quantity coded by its quantity type, a flag as a boolean.
    private func writeMetadataComponents(
        _ components: [FHIRMapping.MetadataComponent], of metadata: Metadata, to json: inout JSONEmitter
    ) {
        var opened = false
        for component in components {
            guard let value = metadata[component.key] else { continue }
            if let quantityType = component.quantityType, case .quantity(let quantity) = value {
                if !opened { json.key("component"); json.beginArray(); opened = true }
                let plan = self.plan(ObjectType(identifier: quantityType, kind: .quantity))
                FHIRJSON.component(plan.codings, valueKey: "valueQuantity", to: &json) { json in
                    writeQuantity(quantity, plan: plan, to: json.out)
                    json.raw("")
                }
            } else if let coding = component.boolean, let flag = Self.boolean(value) {
                if !opened { json.key("component"); json.beginArray(); opened = true }
                FHIRJSON.component([coding], valueKey: "valueBoolean", to: &json) { json in
                    json.literal(flag ? "true" : "false")
                }
            }
        }
        if opened { json.endArray() }
    }

    @inline(__always)
    static func isEmptyString(_ value: MetadataValue) -> Bool {
        if case .string(let text) = value { return text.isEmpty }
        return false
    }

    /// A metadata flag as HealthKit stores it (an `NSNumber` 0 or 1, printed `0`/`1`).
    private static func boolean(_ value: MetadataValue) -> Bool? {
        switch value {
        case .number(let n) where n.value == 0 || n.value == 1: return n.value == 1
        case .string(let s) where s == "true" || s == "false": return s == "true"
        default: return nil
        }
    }

    /// The object's metadata in HealthKitOnFHIR's extension: one nested extension per entry, in
    /// the export's order (a key printed twice with two values keeps both).
    ///
    /// FHIR has no empty strings (a primitive is absent or has content, and R4 readers refuse
    /// `""`): an entry whose value is the empty string is left out, and the extension with it
    /// when nothing is left.
    func writeMetadata(_ metadata: Metadata, to out: OutputBuffer) {
        // Opened at the first entry kept: one pass over the entries, and no extension at all
        // when every value is empty.
        var opened = false
        for entry in metadata.entries {
            if Self.isEmptyString(entry.value) { continue }
            if opened {
                out.append(0x2C)
            } else {
                out.append(",\"extension\":[{\"url\":\"https://bdh.stanford.edu/fhir/defs/metadata\",\"extension\":[")
                opened = true
            }
            if let cached = metadataKeys[entry.key] {
                out.append(contentsOf: cached)
            } else {
                let scratch = OutputBuffer(descriptor: -1, capacity: 256)
                scratch.append("{\"url\":")
                JSONEmitter.appendString(FHIRJSON.metadataURL + "/" + FHIRJSON.urlSegment(entry.key), to: scratch)
                scratch.append(0x2C)
                let bytes = scratch.takeBytes()
                metadataKeys[entry.key] = bytes
                out.append(contentsOf: bytes)
            }
            var json = JSONEmitter(out)
            switch entry.value {
            case .string(let s):
                json.key("valueString")
                json.string(s)
            case .number(let n):
                json.key("valueDecimal")
                json.number(n)
            case .date(let d):
                json.key("valueDateTime")
                json.date(d)
            case .quantity(let q):
                json.key("valueQuantity")
                FHIRJSON.exportedQuantity(q, to: &json)
            }
            out.append(0x7D)
        }
        if opened { out.append("]}]") }
    }
}
