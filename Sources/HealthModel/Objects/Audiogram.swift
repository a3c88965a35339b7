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
/// The iOS 18.1 masking and clamping attributes are kept: masking as the Boolean HealthKit
/// holds (`HKAudiogramSensitivityTest.masked`), which the export prints `0` or `1`; a value
/// that is neither is kept as written in `extensions` instead.
public struct SensitivityPoint: Hashable, Sendable {
    public var frequency: Quantity?
    public var leftEarSensitivity: Quantity?
    public var rightEarSensitivity: Quantity?
    public var leftEarMasked: Bool?
    public var rightEarMasked: Bool?
    public var leftEarClampingRangeLowerBound: ExportNumber?
    public var leftEarClampingRangeUpperBound: ExportNumber?
    public var rightEarClampingRangeLowerBound: ExportNumber?
    public var rightEarClampingRangeUpperBound: ExportNumber?
    public var extensions: Extensions

    public init() {
        self.extensions = .none
    }

    /// An ear's clamping range (iOS 18.1), lower bound first, each with its attribute name.
    public typealias ClampingBounds = [(name: String, keyPath: WritableKeyPath<SensitivityPoint, ExportNumber?> & Sendable)]

    public static let leftEarClampingBounds: ClampingBounds = [
        ("leftEarClampingRangeLowerBound", \.leftEarClampingRangeLowerBound),
        ("leftEarClampingRangeUpperBound", \.leftEarClampingRangeUpperBound),
    ]

    public static let rightEarClampingBounds: ClampingBounds = [
        ("rightEarClampingRangeLowerBound", \.rightEarClampingRangeLowerBound),
        ("rightEarClampingRangeUpperBound", \.rightEarClampingRangeUpperBound),
    ]

    /// Both ears' clamping bounds, left ear first: the one list the JSON reader and writer and
    /// the tables go through (the export writes each ear's beside its other attributes).
    public static let clampingBounds = leftEarClampingBounds + rightEarClampingBounds

    /// A masking flag as the export prints it (`1`, `0`; `true` and `false` read too); `nil` for
    /// any other text.
    public static func maskedFlag(exported text: String) -> Bool? {
        switch text {
        case "1", "true": return true
        case "0", "false": return false
        default: return nil
        }
    }

    /// A masking flag as the export prints it: `1` or `0`, as an `NSNumber` Boolean prints.
    public static func exportedText(masked: Bool?) -> String? {
        masked.map { $0 ? "1" : "0" }
    }
}
