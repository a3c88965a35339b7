import HealthModel

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
