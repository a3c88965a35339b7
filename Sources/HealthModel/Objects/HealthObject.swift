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
        get {
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
        // The sample kinds keep it in their sample attributes, the others at the top.
        set {
            if updateSampleAttributes({ $0.uuid = newValue }) != nil { return }
            switch self {
            case .activitySummary(var o): o.uuid = newValue; self = .activitySummary(o)
            case .clinicalRecord(var o): o.uuid = newValue; self = .clinicalRecord(o)
            case .visionPrescription(var o): o.uuid = newValue; self = .visionPrescription(o)
            case .electrocardiogram(var o): o.uuid = newValue; self = .electrocardiogram(o)
            case .unknown(var o): o.uuid = newValue; self = .unknown(o)
            case .quantitySample, .categorySample, .correlation, .workout, .audiogram: break
            }
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

    /// Changes the sample attributes in place, for the kinds that have them (`sampleAttributes`),
    /// and returns what `change` returns; `nil`, changing nothing, for the other kinds. One
    /// place that knows where each kind keeps them, for every writer of a sample's field.
    @discardableResult
    public mutating func updateSampleAttributes<Result>(_ change: (inout SampleAttributes) -> Result) -> Result? {
        switch self {
        case .quantitySample(var o):
            defer { self = .quantitySample(o) }
            return change(&o.sample)
        case .categorySample(var o):
            defer { self = .categorySample(o) }
            return change(&o.sample)
        case .correlation(var o):
            defer { self = .correlation(o) }
            return change(&o.sample)
        case .workout(var o):
            defer { self = .workout(o) }
            return change(&o.sample)
        case .audiogram(var o):
            defer { self = .audiogram(o) }
            return change(&o.sample)
        default:
            return nil
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
