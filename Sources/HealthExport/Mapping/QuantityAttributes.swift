import HealthModel

/// The quantities of one element, whose values and units the export prints as separate
/// attributes (`duration` and `durationUnit`, `leftEarValue` and `leftEarUnit`): gathered while
/// the attributes are read, in any order, and joined once they all are. A value without a unit
/// gets the empty unit; a unit without a value is no quantity.
struct QuantityAttributes {
    private var values: [String: ExportNumber] = [:]
    private var units: [String: String] = [:]

    /// The value of the quantity named `stem`; `nil` (an empty or invalid number, already
    /// reported) records nothing.
    mutating func value(_ value: ExportNumber?, of stem: String) {
        if let value { values[stem] = value }
    }

    mutating func unit(_ bytes: UnsafeRawBufferPointer, of stem: String) {
        units[stem] = String(decoding: bytes, as: UTF8.self)
    }

    func quantity(_ stem: String) -> Quantity? {
        values[stem].map { Quantity(value: $0, unit: units[stem] ?? "") }
    }
}
