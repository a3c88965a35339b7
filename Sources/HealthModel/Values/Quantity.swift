/// A value with its unit (HealthKit: `HKQuantity`), kept as the export printed both.
///
/// The unit is HealthKit's unit string (`count/min`, `mL/min·kg`, `mmol<180.1558800000541>/L`).
/// Units are converted only when a predicate or an output asks for it.
public struct Quantity: Hashable, Sendable {
    public var value: ExportNumber
    /// The unit string; empty when the export printed a number without a unit.
    public var unit: String

    public init(value: ExportNumber, unit: String) {
        self.value = value
        self.unit = unit
    }

    /// `value unit`, as metadata quantities print: `418 cm`.
    public var text: String { unit.isEmpty ? value.text : "\(value.text) \(unit)" }
}
