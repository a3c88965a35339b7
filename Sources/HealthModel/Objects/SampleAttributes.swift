/// What every sample shares (HealthKit: the `HKObject` and `HKSample` properties).
///
/// Held by each concrete sample type rather than inherited, so the model stays value types.
public struct SampleAttributes: Hashable, Sendable {
    /// Derived from content; see `ObjectIdentity`.
    public var uuid: ObjectUUID
    public var sampleType: ObjectType
    public var sourceRevision: SourceRevision
    public var device: Device?
    /// When the sample was saved. Exported, but not public HealthKit API.
    public var creationDate: ExportTimestamp?
    public var startDate: ExportTimestamp
    public var endDate: ExportTimestamp
    public var metadata: Metadata
    public var extensions: Extensions

    public init(
        uuid: ObjectUUID = ObjectUUID(high: 0, low: 0), sampleType: ObjectType,
        sourceRevision: SourceRevision, device: Device? = nil, creationDate: ExportTimestamp? = nil,
        startDate: ExportTimestamp, endDate: ExportTimestamp, metadata: Metadata = Metadata(),
        extensions: Extensions = .none
    ) {
        self.uuid = uuid
        self.sampleType = sampleType
        self.sourceRevision = sourceRevision
        self.device = device
        self.creationDate = creationDate
        self.startDate = startDate
        self.endDate = endDate
        self.metadata = metadata
        self.extensions = extensions
    }
}
