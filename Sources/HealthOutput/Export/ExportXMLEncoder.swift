import HealthModel

/// Writes model values as Apple's `export.xml` elements: Apple's element and attribute names,
/// attributes in the order current exports print them, dates and numbers in the export's own
/// textual forms, unknown attributes and elements passed through after the known ones.
///
/// Reading what this writes gives the objects back (`parse(write(parse(x))) == parse(x)`, uuids
/// included); `healthport-formats(5)` lists the normalizations (device addresses, repeated
/// workout metadata printed once, legacy attribute names in their current spelling).
enum ExportXMLEncoder {
    static func write(_ object: HealthObject, to xml: XMLEmitter, depth: Int = 1) {
        switch object {
        case .quantitySample(let q): writeRecord(q.sample, quantity: q, category: nil, to: xml, depth: depth)
        case .categorySample(let c): writeRecord(c.sample, quantity: nil, category: c.value, to: xml, depth: depth)
        case .correlation(let c):
            xml.open("Correlation", depth: depth)
            xml.attribute("type", c.sample.sampleType.identifier)
            writeProvenance(c.sample, to: xml)
            writeDates(c.sample, to: xml)
            writeAttributes(c.sample.extensions, to: xml)
            let hasChildren = !c.sample.metadata.isEmpty || !c.objects.isEmpty || !c.sample.extensions.elements.isEmpty
            guard hasChildren else { return xml.closeEmpty() }
            xml.closeStart()
            writeMetadata(c.sample.metadata, to: xml, depth: depth + 1)
            for member in c.objects {
                switch member {
                case .quantity(let q): writeRecord(q.sample, quantity: q, category: nil, to: xml, depth: depth + 1)
                case .category(let cat): writeRecord(cat.sample, quantity: nil, category: cat.value, to: xml, depth: depth + 1)
                }
            }
            writeElements(c.sample.extensions, to: xml, depth: depth + 1)
            xml.end("Correlation", depth: depth)
        case .workout(let w): write(w, to: xml, depth: depth)
        case .activitySummary(let a): write(a, to: xml, depth: depth)
        case .clinicalRecord(let c): write(c, to: xml, depth: depth)
        case .audiogram(let a): write(a, to: xml, depth: depth)
        case .visionPrescription(let v): write(v, to: xml, depth: depth)
        case .electrocardiogram:
            // ECGs live in their CSV files only; export.xml has no element for them.
            return
        case .unknown(let u): write(u.element, to: xml, depth: depth)
        }
    }

    /// `Record`: a quantity or category sample.
    static func writeRecord(
        _ s: SampleAttributes, quantity: QuantitySample?, category: CategoryValue?, to xml: XMLEmitter, depth: Int
    ) {
        xml.open("Record", depth: depth)
        xml.attribute("type", s.sampleType.identifier)
        writeProvenance(s, to: xml)
        if let quantity, !quantity.quantity.unit.isEmpty { xml.attribute("unit", quantity.quantity.unit) }
        xml.attribute("creationDate", s.creationDate)
        xml.attribute("startDate", s.startDate)
        xml.attribute("endDate", s.endDate)
        if let quantity {
            xml.attribute("value", quantity.quantity.value)
            if quantity.count != 1 { xml.attribute("recordCount", String(quantity.count)) }
        } else if let category {
            // "Not applicable" (0 without a name) is an absent value, as older exports print it.
            if let name = category.name {
                xml.attribute("value", name)
            } else if let raw = category.rawValue, raw != 0 {
                xml.attribute("value", String(raw))
            }
        }
        writeAttributes(s.extensions, to: xml)
        let beats = quantity?.instantaneousBeatsPerMinute ?? []
        guard !s.metadata.isEmpty || !beats.isEmpty || !s.extensions.elements.isEmpty else { return xml.closeEmpty() }
        xml.closeStart()
        writeMetadata(s.metadata, to: xml, depth: depth + 1)
        if !beats.isEmpty {
            xml.open("HeartRateVariabilityMetadataList", depth: depth + 1)
            xml.closeStart()
            for beat in beats {
                xml.open("InstantaneousBeatsPerMinute", depth: depth + 2)
                xml.attribute("bpm", beat.bpm)
                xml.attribute("time", beat.time)
                xml.closeEmpty()
            }
            xml.end("HeartRateVariabilityMetadataList", depth: depth + 1)
        }
        writeElements(s.extensions, to: xml, depth: depth + 1)
        xml.end("Record", depth: depth)
    }

    /// `sourceName`, `sourceVersion`, `device`: in the order exports print them, after `type`.
    static func writeProvenance(_ s: SampleAttributes, to xml: XMLEmitter) {
        xml.attribute("sourceName", s.sourceRevision.source.name)
        xml.attribute("sourceVersion", s.sourceRevision.version)
        if let device = s.device { xml.device(device) }
    }

    static func writeDates(_ s: SampleAttributes, to xml: XMLEmitter) {
        xml.attribute("creationDate", s.creationDate)
        xml.attribute("startDate", s.startDate)
        xml.attribute("endDate", s.endDate)
    }

    static func writeMetadata(_ metadata: Metadata, to xml: XMLEmitter, depth: Int) {
        for entry in metadata.entries {
            xml.open("MetadataEntry", depth: depth)
            xml.attribute("key", entry.key)
            xml.attribute("value", entry.value.text)
            xml.closeEmpty()
        }
    }

    /// Unknown attributes, after the known ones.
    static func writeAttributes(_ extensions: Extensions, to xml: XMLEmitter) {
        for attribute in extensions.attributes { xml.attribute(attribute.name, attribute.value) }
    }

    /// Ends an element whose only children are its metadata and the unknown elements passed
    /// through (most elements): its unknown attributes, then `/>` when it has no children, else
    /// the children and its end tag.
    static func finish(_ name: String, metadata: Metadata = Metadata(), extensions: Extensions, to xml: XMLEmitter, depth: Int) {
        writeAttributes(extensions, to: xml)
        guard !metadata.isEmpty || !extensions.elements.isEmpty else { return xml.closeEmpty() }
        xml.closeStart()
        writeMetadata(metadata, to: xml, depth: depth + 1)
        writeElements(extensions, to: xml, depth: depth + 1)
        xml.end(name, depth: depth)
    }

    /// Unknown child elements, after the known children.
    static func writeElements(_ extensions: Extensions, to xml: XMLEmitter, depth: Int) {
        for element in extensions.elements { write(element, to: xml, depth: depth) }
    }

    static func write(_ element: GenericElement, to xml: XMLEmitter, depth: Int) {
        xml.open(element.name, depth: depth)
        for attribute in element.attributes { xml.attribute(attribute.name, attribute.value) }
        if element.children.isEmpty, element.text == nil { return xml.closeEmpty() }
        if element.children.isEmpty, let text = element.text {
            xml.out.append(0x3E)
            xml.text(text)
            xml.out.append("</")
            xml.out.appendRaw(element.name)
            xml.out.append(">\n")
            return
        }
        xml.closeStart()
        if let text = element.text {
            xml.indent(depth + 1)
            xml.text(text)
            xml.out.append(0x0A)
        }
        for child in element.children { write(child, to: xml, depth: depth + 1) }
        xml.end(element.name, depth: depth)
    }

    static func writeQuantity(_ name: String, _ quantity: Quantity?, unitAttribute: String, to xml: XMLEmitter) {
        guard let quantity else { return }
        xml.attribute(name, quantity.value)
        if !quantity.unit.isEmpty { xml.attribute(unitAttribute, quantity.unit) }
    }

    static func write(_ w: Workout, to xml: XMLEmitter, depth: Int) {
        xml.open("Workout", depth: depth)
        xml.attribute("workoutActivityType", w.workoutActivityType.name)
        writeQuantity("duration", w.duration, unitAttribute: "durationUnit", to: xml)
        writeQuantity("totalDistance", w.totalDistance, unitAttribute: "totalDistanceUnit", to: xml)
        writeQuantity("totalEnergyBurned", w.totalEnergyBurned, unitAttribute: "totalEnergyBurnedUnit", to: xml)
        writeProvenance(w.sample, to: xml)
        writeDates(w.sample, to: xml)
        writeAttributes(w.sample.extensions, to: xml)
        let hasChildren = !w.sample.metadata.isEmpty || !w.workoutEvents.isEmpty || !w.workoutActivities.isEmpty
            || !w.statistics.isEmpty || !w.routes.isEmpty || !w.sample.extensions.elements.isEmpty
        guard hasChildren else { return xml.closeEmpty() }
        xml.closeStart()
        writeMetadata(w.sample.metadata, to: xml, depth: depth + 1)
        for event in w.workoutEvents { write(event, to: xml, depth: depth + 1) }
        for activity in w.workoutActivities {
            xml.open("WorkoutActivity", depth: depth + 1)
            xml.attribute("uuid", activity.uuid)
            xml.attribute("startDate", activity.startDate)
            xml.attribute("endDate", activity.endDate)
            writeQuantity("duration", activity.duration, unitAttribute: "durationUnit", to: xml)
            writeAttributes(activity.extensions, to: xml)
            if activity.metadata.isEmpty && activity.workoutEvents.isEmpty && activity.statistics.isEmpty
                && activity.extensions.elements.isEmpty
            {
                xml.closeEmpty()
                continue
            }
            xml.closeStart()
            // Apple's order inside an activity: events, statistics, then metadata.
            for event in activity.workoutEvents { write(event, to: xml, depth: depth + 2) }
            for statistics in activity.statistics { write(statistics, to: xml, depth: depth + 2) }
            writeMetadata(activity.metadata, to: xml, depth: depth + 2)
            writeElements(activity.extensions, to: xml, depth: depth + 2)
            xml.end("WorkoutActivity", depth: depth + 1)
        }
        for statistics in w.statistics { write(statistics, to: xml, depth: depth + 1) }
        for route in w.routes {
            xml.open("WorkoutRoute", depth: depth + 1)
            writeProvenance(route.sample, to: xml)
            writeDates(route.sample, to: xml)
            writeAttributes(route.sample.extensions, to: xml)
            if route.sample.metadata.isEmpty && route.fileReference == nil && route.locations.isEmpty
                && route.sample.extensions.elements.isEmpty
            {
                xml.closeEmpty()
                continue
            }
            xml.closeStart()
            writeMetadata(route.sample.metadata, to: xml, depth: depth + 2)
            if let path = route.fileReference {
                xml.open("FileReference", depth: depth + 2)
                xml.attribute("path", path)
                xml.closeEmpty()
            }
            for location in route.locations {
                xml.open("Location", depth: depth + 2)
                xml.attribute("date", location.date)
                for number in RouteLocation.numbers { xml.attribute(number.name, location[keyPath: number.keyPath]) }
                xml.closeEmpty()
            }
            writeElements(route.sample.extensions, to: xml, depth: depth + 2)
            xml.end("WorkoutRoute", depth: depth + 1)
        }
        // Current exports print a workout's metadata a second time after its routes (quirk Q8);
        // readers keep one copy, so the repetition changes nothing but the bytes.
        writeMetadata(w.sample.metadata, to: xml, depth: depth + 1)
        writeElements(w.sample.extensions, to: xml, depth: depth + 1)
        xml.end("Workout", depth: depth)
    }

    static func write(_ event: WorkoutEvent, to xml: XMLEmitter, depth: Int) {
        xml.open("WorkoutEvent", depth: depth)
        xml.attribute("type", event.type.name)
        xml.attribute("date", event.date)
        writeQuantity("duration", event.duration, unitAttribute: "durationUnit", to: xml)
        finish("WorkoutEvent", metadata: event.metadata, extensions: event.extensions, to: xml, depth: depth)
    }

    static func write(_ s: WorkoutStatistics, to xml: XMLEmitter, depth: Int) {
        xml.open("WorkoutStatistics", depth: depth)
        xml.attribute("type", s.quantityType.identifier)
        xml.attribute("startDate", s.startDate)
        xml.attribute("endDate", s.endDate)
        xml.attribute("average", s.average)
        xml.attribute("minimum", s.minimum)
        xml.attribute("maximum", s.maximum)
        xml.attribute("sum", s.sum)
        xml.attribute("unit", s.unit)
        finish("WorkoutStatistics", extensions: s.extensions, to: xml, depth: depth)
    }

    static func write(_ a: ActivitySummary, to xml: XMLEmitter, depth: Int) {
        xml.open("ActivitySummary", depth: depth)
        xml.attribute("dateComponents", a.dateComponents?.text)
        for measure in ActivitySummary.measures {
            for (name, value) in measure.valueAndGoal(in: a) { xml.attribute(name, value) }
            if measure.unitIsExported { xml.attribute(measure.name + "Unit", a.activeEnergyBurnedUnit) }
        }
        finish("ActivitySummary", extensions: a.extensions, to: xml, depth: depth)
    }

    static func write(_ c: ClinicalRecord, to xml: XMLEmitter, depth: Int) {
        xml.open("ClinicalRecord", depth: depth)
        xml.attribute("type", c.fhirResourceType)
        xml.attribute("identifier", c.identifier)
        xml.attribute("sourceName", c.sourceName)
        xml.attribute("sourceURL", c.sourceURL)
        xml.attribute("fhirVersion", c.fhirVersion)
        xml.attribute("receivedDate", c.receivedDate)
        xml.attribute("resourceFilePath", c.resourceFilePath)
        finish("ClinicalRecord", extensions: c.extensions, to: xml, depth: depth)
    }

    static func write(_ a: Audiogram, to xml: XMLEmitter, depth: Int) {
        xml.open("Audiogram", depth: depth)
        xml.attribute("type", a.sample.sampleType.identifier)
        writeProvenance(a.sample, to: xml)
        writeDates(a.sample, to: xml)
        writeAttributes(a.sample.extensions, to: xml)
        guard !a.sample.metadata.isEmpty || !a.sensitivityPoints.isEmpty || !a.sample.extensions.elements.isEmpty else {
            return xml.closeEmpty()
        }
        xml.closeStart()
        writeMetadata(a.sample.metadata, to: xml, depth: depth + 1)
        for p in a.sensitivityPoints {
            xml.open("SensitivityPoint", depth: depth + 1)
            writeQuantity("frequencyValue", p.frequency, unitAttribute: "frequencyUnit", to: xml)
            writeQuantity("leftEarValue", p.leftEarSensitivity, unitAttribute: "leftEarUnit", to: xml)
            xml.attribute("leftEarMasked", SensitivityPoint.exportedText(masked: p.leftEarMasked))
            for bound in SensitivityPoint.leftEarClampingBounds { xml.attribute(bound.name, p[keyPath: bound.keyPath]) }
            writeQuantity("rightEarValue", p.rightEarSensitivity, unitAttribute: "rightEarUnit", to: xml)
            xml.attribute("rightEarMasked", SensitivityPoint.exportedText(masked: p.rightEarMasked))
            for bound in SensitivityPoint.rightEarClampingBounds { xml.attribute(bound.name, p[keyPath: bound.keyPath]) }
            finish("SensitivityPoint", extensions: p.extensions, to: xml, depth: depth + 1)
        }
        writeElements(a.sample.extensions, to: xml, depth: depth + 1)
        xml.end("Audiogram", depth: depth)
    }

    static func write(_ v: VisionPrescription, to xml: XMLEmitter, depth: Int) {
        xml.open("VisionPrescription", depth: depth)
        xml.attribute("type", v.prescriptionType)
        xml.attribute("dateIssued", v.dateIssued)
        xml.attribute("expirationDate", v.expirationDate)
        xml.attribute("brand", v.brand)
        writeAttributes(v.extensions, to: xml)
        guard v.rightEye != nil || v.leftEye != nil || !v.attachments.isEmpty || !v.metadata.isEmpty || !v.extensions.elements.isEmpty
        else { return xml.closeEmpty() }
        xml.closeStart()
        for (name, eye) in [("RightEye", v.rightEye), ("LeftEye", v.leftEye)] {
            guard let eye else { continue }
            xml.open(name, depth: depth + 1)
            for field in LensSpecification.fields {
                writeQuantity(field.attribute, eye[attribute: field.attribute], unitAttribute: field.attribute + "Unit", to: xml)
            }
            finish(name, extensions: eye.extensions, to: xml, depth: depth + 1)
        }
        for attachment in v.attachments {
            xml.open("Attachment", depth: depth + 1)
            xml.attribute("identifier", attachment)
            xml.closeEmpty()
        }
        writeMetadata(v.metadata, to: xml, depth: depth + 1)
        writeElements(v.extensions, to: xml, depth: depth + 1)
        xml.end("VisionPrescription", depth: depth)
    }

    /// The prolog, the DTD, the root's start tag, `ExportDate` and `Me`.
    static func write(header: ExportHeader, to xml: XMLEmitter) {
        xml.out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE HealthData [\n")
        xml.out.appendRaw(ExportDTD.text)
        xml.out.append("\n]>\n<HealthData")
        xml.attribute("locale", header.locale)
        xml.out.append(">\n")
        if let date = header.exportDate {
            xml.open("ExportDate", depth: 1)
            xml.attribute("value", date.exportText)
            xml.closeEmpty()
        }
        // `Me` is written when the export had one (its DTD requires it), also when every
        // characteristic was left out (a policy, a type filter): they look unset, not absent.
        if let me = header.characteristics {
            xml.open("Me", depth: 1)
            for field in Characteristics.fields { xml.attribute(field.identifier, me[keyPath: field.keyPath] ?? "") }
            for other in me.other { xml.attribute(other.name, other.value) }
            xml.closeEmpty()
        }
    }
}
