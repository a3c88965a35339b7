/// Any object an export holds, as one value the reader streams to its sink.
///
/// A closed enum rather than a protocol: the hot path switches on it without existential boxes,
/// and every writer is forced by the compiler to handle every kind.
public enum HealthObject: Hashable, Sendable {
    case quantitySample(QuantitySample)
    case categorySample(CategorySample)
    case correlation(Correlation)
    case workout(Workout)
    case activitySummary(ActivitySummary)
    case clinicalRecord(ClinicalRecord)
    case audiogram(Audiogram)
    /// Boxed: a prescription's two lenses of eleven quantities each made it the largest kind by
    /// far (about a kilobyte), and an enum is as large as its largest case, so every object was
    /// moved and copied at that size; no export holds more than a few prescriptions.
    indirect case visionPrescription(VisionPrescription)
    /// Read from the ECG CSV files beside the export, not from `export.xml`.
    case electrocardiogram(Electrocardiogram)
    case unknown(UnknownObject)

    public var uuid: ObjectUUID {
        switch self {
        case .quantitySample(let o): return o.sample.uuid
        case .categorySample(let o): return o.sample.uuid
        case .correlation(let o): return o.sample.uuid
        case .workout(let o): return o.sample.uuid
        case .activitySummary(let o): return o.uuid
        case .clinicalRecord(let o): return o.uuid
        case .audiogram(let o): return o.sample.uuid
        case .visionPrescription(let o): return o.uuid
        case .electrocardiogram(let o): return o.uuid
        case .unknown(let o): return o.uuid
        }
    }

    /// The object's type. Unknown elements get a type named after the element; a passed-through
    /// `Record` keeps its `type` (kind `other`).
    public var objectType: ObjectType {
        switch self {
        case .quantitySample(let o): return o.sample.sampleType
        case .categorySample(let o): return o.sample.sampleType
        case .correlation(let o): return o.sample.sampleType
        case .workout(let o): return o.sample.sampleType
        case .activitySummary: return .activitySummary
        case .clinicalRecord(let o): return o.clinicalType
        case .audiogram(let o): return o.sample.sampleType
        case .visionPrescription(let o): return o.sampleType
        case .electrocardiogram: return Electrocardiogram.sampleType
        case .unknown(let o): return ObjectType(identifier: o.sampleType ?? o.element.name, kind: .other)
        }
    }

    /// The sample attributes, for the kinds that are HealthKit samples with a source.
    public var sampleAttributes: SampleAttributes? {
        switch self {
        case .quantitySample(let o): return o.sample
        case .categorySample(let o): return o.sample
        case .correlation(let o): return o.sample
        case .workout(let o): return o.sample
        case .audiogram(let o): return o.sample
        default: return nil
        }
    }

    /// The start of the object's interval, where it has one.
    public var startDate: ExportTimestamp? {
        if let sample = sampleAttributes { return sample.startDate }
        switch self {
        case .clinicalRecord(let o): return o.receivedDate
        case .visionPrescription(let o): return o.dateIssued
        case .electrocardiogram(let o): return o.recordedDate
        case .unknown(let o): return o.startDate
        default: return nil
        }
    }

    /// The end of the object's interval, where it has one.
    public var endDate: ExportTimestamp? {
        if let sample = sampleAttributes { return sample.endDate }
        switch self {
        case .clinicalRecord(let o): return o.receivedDate
        case .visionPrescription(let o): return o.expirationDate ?? o.dateIssued
        case .electrocardiogram(let o): return o.endDate
        case .unknown(let o): return o.endDate
        default: return nil
        }
    }

    /// The discriminator NDJSON writes as `kind`: HealthKit's class name without `HK`, camel-cased.
    public var kindName: String {
        switch self {
        case .quantitySample: return "quantitySample"
        case .categorySample: return "categorySample"
        case .correlation: return "correlation"
        case .workout: return "workout"
        case .activitySummary: return "activitySummary"
        case .clinicalRecord: return "clinicalRecord"
        case .audiogram: return "audiogram"
        case .visionPrescription: return "visionPrescription"
        case .electrocardiogram: return "electrocardiogram"
        case .unknown: return "unknown"
        }
    }
}
