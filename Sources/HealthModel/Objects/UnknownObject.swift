/// A top-level element healthport has no model for, passed through whole.
///
/// Two kinds of element come here: element kinds healthport does not know (a future iOS's), and
/// `Record`s of sample kinds it does not model (heartbeat series, State of Mind, GAD-7 and PHQ-9
/// scored assessments): those are not quantity or category samples, and reading them as one
/// would invent a value Apple never wrote (`value: 0`). Either way the element is kept exactly
/// as the export wrote it. A passed-through `Record` keeps its type: ``sampleType`` is its
/// `type` attribute, so `--type HKDataTypeIdentifierStateOfMind` and policies select it, and its
/// dates place it in time (``startDate``, ``endDate``).
public struct UnknownObject: Hashable, Sendable {
    public var uuid: ObjectUUID
    public var element: GenericElement

    public init(uuid: ObjectUUID = ObjectUUID(high: 0, low: 0), element: GenericElement) {
        self.uuid = uuid
        self.element = element
    }

    /// The `type` of a passed-through `Record` (`HKDataTypeIdentifierStateOfMind`); `nil` for
    /// other elements.
    public var sampleType: String? {
        guard element.name == "Record" else { return nil }
        return element.attributes.first(where: { $0.name == "type" })?.value
    }

    /// A passed-through `Record`'s `startDate`, when it is in the export's date form.
    public var startDate: ExportTimestamp? { recordDate("startDate") }

    /// A passed-through `Record`'s `endDate` (its `startDate` when it has none).
    public var endDate: ExportTimestamp? { recordDate("endDate") ?? startDate }

    private func recordDate(_ name: String) -> ExportTimestamp? {
        guard element.name == "Record", let text = element.attributes.first(where: { $0.name == name })?.value else {
            return nil
        }
        return ExportTimestamp.parse(text)
    }
}
