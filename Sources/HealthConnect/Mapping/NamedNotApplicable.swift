import HealthModel

extension CategoryValue {
    /// HealthKit's value for category types that carry none, named as Apple's exports name it
    /// (`HKCategoryValueNotApplicable`, 0). The model's own `notApplicable` has no name, being
    /// what a record without a `value` attribute reads as; a Health Connect record that becomes
    /// such a sample is written as Apple would write it.
    static let namedNotApplicable = CategoryValue(rawValue: 0, name: "HKCategoryValueNotApplicable")
}
