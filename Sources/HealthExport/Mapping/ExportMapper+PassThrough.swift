import Foundation
import HealthModel

/// Elements and attributes the model does not know, kept whole as `GenericElement`s.
extension ExportMapper {
    func startGeneric(_ name: ElementName, _ attributes: AttributeView, _ parser: any ElementEventSource) {
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
            let parentName = stack.last.map { "\($0.kind)" } ?? "root"
            warnings.warn(
                "element:\(elementName)@\(parentName)",
                "element <\(elementName.prefix(60))> is not part of healthport's model here; passed through",
                at: self.location(parser))
        }
        genericStack.append(element)
    }

    func endGeneric(_ parser: any ElementEventSource) {
        guard var finished = genericStack.popLast() else { return }
        if let text = finished.text {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            finished.text = trimmed.isEmpty ? nil : trimmed
        }
        if !genericStack.isEmpty {
            genericStack[genericStack.count - 1].children.append(finished)
            return
        }
        switch stack.last?.kind {
        case .healthData?:
            emit(.unknown(UnknownObject(element: finished)), parser)
        case .record?, .hrvList?:
            record.extensions.elements.append(finished)
        default:
            var kept = false
            modifyTop { kept = $0.addExtension(finished) }
            guard !kept else { return }
            // Children of ExportDate, Me, MetadataEntry, …: nowhere to keep them.
            warnings.warn(
                "dropped:\(finished.name)", "element <\(finished.name.prefix(60))> inside an element that cannot hold it was ignored",
                at: self.location(parser))
        }
    }
}
