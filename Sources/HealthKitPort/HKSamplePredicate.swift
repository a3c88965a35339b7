import Foundation

/// One type and an optional predicate (HealthKit: `HKSamplePredicate`), the entries of a query
/// descriptor's `predicates` array: `.quantitySample(type: HKQuantityType(.stepCount))`,
/// `.visionPrescription()`. A descriptor matches the samples of any of its entries.
///
/// `@unchecked Sendable`: the `NSPredicate`s this library makes are immutable.
public struct HKSamplePredicate<Sample: HKSample>: @unchecked Sendable {
    /// The type's identifier.
    let type: HKSampleType
    let nsPredicate: NSPredicate?

    init(type: HKSampleType, predicate: NSPredicate?) {
        self.type = type
        self.nsPredicate = predicate
    }
}

extension HKSamplePredicate where Sample == HKSample {
    /// Samples of any type.
    public static func sample(type: HKSampleType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKSample> {
        HKSamplePredicate(type: type, predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKQuantitySample {
    /// Quantity samples of `type`, optionally narrowed by `predicate`.
    public static func quantitySample(type: HKQuantityType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKQuantitySample> {
        HKSamplePredicate(type: type, predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKCategorySample {
    /// Category samples of `type`, optionally narrowed by `predicate`.
    public static func categorySample(type: HKCategoryType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKCategorySample> {
        HKSamplePredicate(type: type, predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKCorrelation {
    /// Correlations of `type` (blood pressure, food), optionally narrowed by `predicate`.
    public static func correlation(type: HKCorrelationType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKCorrelation> {
        HKSamplePredicate(type: type, predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKWorkout {
    /// Workouts, optionally narrowed by `predicate`.
    public static func workout(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKWorkout> {
        HKSamplePredicate(type: HKObjectType.workoutType(), predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKVisionPrescription {
    /// Vision prescriptions: a per-object type, so a consumer sees only those granted to it.
    public static func visionPrescription(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKVisionPrescription> {
        HKSamplePredicate(type: HKObjectType.visionPrescriptionType(), predicate: predicate)
    }
}
