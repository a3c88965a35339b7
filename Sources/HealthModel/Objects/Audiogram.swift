/// A hearing test (HealthKit: `HKAudiogramSample`).
public struct Audiogram: Hashable, Sendable {
    public var sample: SampleAttributes
    public var sensitivityPoints: [SensitivityPoint]

    public init(sample: SampleAttributes, sensitivityPoints: [SensitivityPoint] = []) {
        self.sample = sample
        self.sensitivityPoints = sensitivityPoints
    }
}

/// One tested frequency (HealthKit: `HKAudiogramSensitivityPoint`). Either ear may be missing.
/// The iOS 18.1 masking and clamping attributes are kept as exported: their value spelling has
/// not been seen in a public export.
public struct SensitivityPoint: Hashable, Sendable {
    public var frequency: Quantity?
    public var leftEarSensitivity: Quantity?
    public var rightEarSensitivity: Quantity?
    public var leftEarMasked: String?
    public var rightEarMasked: String?
    public var leftEarClampingRangeLowerBound: ExportNumber?
    public var leftEarClampingRangeUpperBound: ExportNumber?
    public var rightEarClampingRangeLowerBound: ExportNumber?
    public var rightEarClampingRangeUpperBound: ExportNumber?
    public var extensions: Extensions

    public init() {
        self.extensions = .none
    }
}
