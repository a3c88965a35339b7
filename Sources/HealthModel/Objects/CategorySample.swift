/// A sample with an enumerated value (HealthKit: `HKCategorySample`), from a `Record` with a
/// category type.
public struct CategorySample: Hashable, Sendable {
    public var sample: SampleAttributes
    public var value: CategoryValue

    public init(sample: SampleAttributes, value: CategoryValue) {
        self.sample = sample
        self.value = value
    }
}
