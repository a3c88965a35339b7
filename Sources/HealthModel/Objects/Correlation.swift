/// A group of samples recorded together (HealthKit: `HKCorrelation`): blood pressure (a
/// systolic and a diastolic sample) or food (dietary samples).
///
/// Every member also appears as a top-level `Record` in the export (the DTD says so). The member
/// samples carry the same derived uuid as their top-level copy, so they are references to those
/// samples, not new samples: counting them again would double-count (quirk Q6).
public struct Correlation: Hashable, Sendable {
    public var sample: SampleAttributes
    public var objects: [CorrelatedSample]

    public init(sample: SampleAttributes, objects: [CorrelatedSample]) {
        self.sample = sample
        self.objects = objects
    }
}

/// A member of a correlation.
public enum CorrelatedSample: Hashable, Sendable {
    case quantity(QuantitySample)
    case category(CategorySample)

    public var sample: SampleAttributes {
        switch self {
        case .quantity(let q): return q.sample
        case .category(let c): return c.sample
        }
    }
}
