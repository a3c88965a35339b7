import Foundation
import HealthModel

/// What every sample-like element shares (source, device, dates, metadata, unknown attributes)
/// and the `Me` element's characteristics: cold paths, where names become Strings.
extension ExportMapper {
    func characteristics(_ attributes: AttributeView) -> Characteristics {
        var me = Characteristics()
        attributes.forEach { name, bytes in
            let value = String(decoding: bytes, as: UTF8.self)
            if let field = Characteristics.fields.first(where: { $0.identifier == name }) {
                me[keyPath: field.keyPath] = value.isEmpty ? nil : value
            } else {
                me.other.append(GenericAttribute(name: name, value: value))
            }
        }
        return me
    }

    /// Reads the attributes every sample element shares; others go to `extra`, which returns
    /// whether it used them (the rest become extensions).
    func sampleAttributes(
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
        attributes.forEach { name, value in
            switch name {
            case "type": type = ObjectType(recordType: String(decoding: value, as: UTF8.self))
            case "sourceName", "source": sourceName = sourceNames.value(for: value)
            case "sourceVersion": version = sourceVersions.value(for: value)
            case "device": device = self.device(value)
            case "creationDate", "startDate", "endDate":
                guard let date = ExportTimestamp.parse(value) else {
                    fail(parser, .invalidAttribute, "invalid \(name) \(Self.quoted(value)) on <\(element)>")
                    return
                }
                if name == "creationDate" { creation = date } else if name == "startDate" { start = date } else { end = date }
            default:
                if !extra(name, value) { unknownAttribute(element, name, value, into: &extensions, parser) }
            }
        }
        let startDate = required(start, "startDate", on: element, parser) ?? ExportTimestamp(secondsSince1970: 0, utcOffsetSeconds: 0)
        if sourceName == nil {
            warnings.warn("missingSourceName", "objects without sourceName are read with an empty source name", at: self.location(parser))
        }
        return SampleAttributes(
            sampleType: type, sourceRevision: SourceRevision(source: Source(name: sourceName ?? ""), version: version),
            device: device, creationDate: creation, startDate: startDate, endDate: end ?? startDate,
            extensions: extensions)
    }

    func number(_ value: UnsafeRawBufferPointer, _ name: String, _ element: String, _ parser: any ElementEventSource) -> ExportNumber? {
        if value.count == 0 { return nil }
        guard let number = ExportNumber.parse(value) else {
            fail(parser, .invalidAttribute, "invalid \(name) \(Self.quoted(value)) on <\(element)>")
            return nil
        }
        return number
    }

    func date(_ value: UnsafeRawBufferPointer, _ name: String, _ element: String, _ parser: any ElementEventSource) -> ExportTimestamp? {
        guard let date = ExportTimestamp.parse(value) else {
            fail(parser, .invalidAttribute, "invalid \(name) \(Self.quoted(value)) on <\(element)>")
            return nil
        }
        return date
    }

    /// A required attribute's value; when it is missing, fails with `<element> has no name`,
    /// unless a bad value has already failed the parse (that error says more).
    func required<Value>(_ value: Value?, _ name: String, on element: String, _ parser: any ElementEventSource) -> Value? {
        if value == nil, parser.pendingError == nil { fail(parser, .invalidAttribute, "<\(element)> has no \(name)") }
        return value
    }

    func unknownAttribute(_ element: String, _ name: String, _ value: UnsafeRawBufferPointer, into extensions: inout Extensions, _ parser: any ElementEventSource) {
        extensions.attributes.append(GenericAttribute(name: name, value: String(decoding: value, as: UTF8.self)))
        notePassedThrough("\(element)@\(name)")
        warnings.warn(
            "attribute:\(element)@\(name)",
            "attribute \(name.prefix(60)) on <\(element)> is not part of healthport's model; passed through",
            at: self.location(parser))
    }
}

extension SampleAttributes {
    func with(type: ObjectType) -> SampleAttributes {
        var copy = self
        copy.sampleType = type
        return copy
    }
}
