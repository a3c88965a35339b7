import Foundation
import HealthModel

/// A value with a unit (HealthKit: `HKQuantity`): `quantity.doubleValue(for: .count())`.
///
/// Keeps the value and unit the export printed; conversion happens when asked, with
/// healthport's unit arithmetic (exact international definitions: 1 mi = 1609.344 m).
public final class HKQuantity: NSObject, @unchecked Sendable {
    let value: Double
    let unit: HKUnit

    /// A quantity of `value` in `unit`.
    public init(unit: HKUnit, doubleValue value: Double) {
        self.unit = unit
        self.value = value
        super.init()
    }

    /// The value in `unit`. HealthKit raises for an incompatible unit; this library answers
    /// `nan` instead (the unit may come from data, and data never crashes a healthport run).
    public func doubleValue(for unit: HKUnit) -> Double {
        guard let from = self.unit.unit, let to = unit.unit, let converted = try? from.convert(value, to: to) else {
            return .nan
        }
        return converted
    }

    /// Whether the quantity converts to `unit`.
    public func `is`(compatibleWith unit: HKUnit) -> Bool {
        self.unit.isCompatible(with: unit)
    }

    /// Orders two compatible quantities (HealthKit: `compare(_:)`).
    public func compare(_ other: HKQuantity) -> ComparisonResult {
        let mine = value
        let theirs = other.doubleValue(for: unit)
        if mine < theirs { return .orderedAscending }
        if mine > theirs { return .orderedDescending }
        return .orderedSame
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKQuantity, other.is(compatibleWith: unit) else { return false }
        return compare(other) == .orderedSame
    }

    public override var hash: Int { unit.unit.map { Int($0.toBase(value).bitPattern % UInt64(Int.max)) } ?? value.hashValue }

    /// `value unit`, e.g. `72 count/min`.
    public override var description: String {
        let text = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        return unit.unitString.isEmpty ? text : "\(text) \(unit.unitString)"
    }

    convenience init(_ quantity: Quantity) {
        self.init(unit: HKUnit(from: quantity.unit), doubleValue: quantity.value.value)
    }
}
