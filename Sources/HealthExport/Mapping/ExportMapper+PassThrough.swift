import Foundation
import HealthModel

/// Elements and attributes the model does not know, kept whole as `GenericElement`s.
extension ExportMapper {
    /// Names passed through told apart at most: past this many, only their total is kept, under
    /// `otherPassedThrough` (a hostile export can bring a new name with every element).
    static let maximumPassedThroughNames = 10_000
    static let otherPassedThrough = "(more than 10000 names)"

    /// Counts one element or attribute passed through, by name.
    func notePassedThrough(_ name: String) {
        if let other = passedThrough[Self.otherPassedThrough] {
            passedThrough[Self.otherPassedThrough] = other + 1
            return
        }
        passedThrough[name, default: 0] += 1
        if passedThrough.count > Self.maximumPassedThroughNames { passedThrough = Self.collapsed(passedThrough) }
    }

    /// Adds the counts of another part of the read (a parallel read's chunk). Past the bound the
    /// map is one total, whichever part went past it: the same as a sequential read's.
    static func mergePassedThrough(_ counts: inout [String: Int], _ more: [String: Int]) {
        counts.merge(more, uniquingKeysWith: +)
        if counts.count > maximumPassedThroughNames || (counts[otherPassedThrough] != nil && counts.count > 1) {
            counts = collapsed(counts)
        }
    }

    private static func collapsed(_ counts: [String: Int]) -> [String: Int] {
        [otherPassedThrough: counts.values.reduce(0, +)]
    }

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
            notePassedThrough(elementName)
            let parentName = stack.last.map { "\($0.kind)" } ?? "root"
            warnings.warn(
                "element:\(elementName)@\(parentName)",
                "element <\(elementName.prefix(60))> is not part of healthport's model here; passed through",
                at: self.location(parser))
        }
        genericStack.append(element)
    }

    /// The type of a `Record` that is no quantity or category sample and must be kept whole:
    /// one whose type has none of the sample prefixes (`HKDataTypeIdentifierStateOfMind`,
    /// `HKScoredAssessmentTypeIdentifierGAD7`, `HKDataTypeIdentifierHeartbeatSeries`) and no
    /// `unit`. Read as a category sample it would carry a value Apple never wrote (`0`, or a
    /// score taken for a category value). `nil` for every other record: a quantity or category
    /// type costs one interned lookup of the `type` attribute, which Apple writes first.
    func passedThroughRecordType(_ attributes: AttributeView) -> ObjectType? {
        var type: ObjectType? = nil
        for i in 0..<attributes.count where matches(attributes.name(i), "type") {
            type = recordTypes.value(for: attributes.value(i)).type
            break
        }
        guard let type, type.kind == .other else { return nil }
        for i in 0..<attributes.count where matches(attributes.name(i), "unit") { return nil }
        return type
    }

    /// Opens a passed-through `Record` (`passedThroughRecordType`): the element, its attributes
    /// and everything inside it are kept as written and delivered as an `UnknownObject`, counted
    /// under its type, with one warning per type.
    func startPassedThroughRecord(_ type: ObjectType, _ name: ElementName, _ attributes: AttributeView, _ parser: any ElementEventSource) {
        var element = GenericElement(name: name.string)
        for i in 0..<attributes.count {
            element.attributes.append(
                GenericAttribute(
                    name: String(decoding: attributes.name(i), as: UTF8.self),
                    value: String(decoding: attributes.value(i), as: UTF8.self)))
        }
        notePassedThrough(type.identifier)
        warnings.warn(
            "passedThrough:\(type.identifier)",
            "samples of type \(type.identifier.prefix(80)) are not in healthport's model; passed through as written",
            at: self.location(parser))
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
