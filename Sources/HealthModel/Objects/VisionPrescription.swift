/// A glasses or contacts prescription (HealthKit: `HKVisionPrescription`), the one type
/// HealthKit authorizes per object.
///
/// No public export contains one; the shape follows the DTD. `prescriptionType` is kept as
/// exported because its spelling is unknown (names, bare names and integers are all plausible).
public struct VisionPrescription: Hashable, Sendable {
    public var uuid: ObjectUUID
    public var sampleType: ObjectType
    public var prescriptionType: String?
    public var dateIssued: ExportTimestamp?
    public var expirationDate: ExportTimestamp?
    /// Contact lenses only.
    public var brand: String?
    public var rightEye: LensSpecification?
    public var leftEye: LensSpecification?
    /// `Attachment@identifier` values: references to the scanned prescription, which is not exported.
    public var attachments: [String]
    public var metadata: Metadata
    public var extensions: Extensions

    public init(uuid: ObjectUUID = ObjectUUID(high: 0, low: 0)) {
        self.uuid = uuid
        self.sampleType = .visionPrescription
        self.attachments = []
        self.metadata = Metadata()
        self.extensions = .none
    }
}

/// One eye's prescription: the 11 value/unit pairs the export's `RightEye`/`LeftEye` may carry.
/// Prism is two pairs here (amount, angle), as exported; HealthKit models it as `HKVisionPrism`.
public struct LensSpecification: Hashable, Sendable {
    public var sphere: Quantity?
    public var cylinder: Quantity?
    public var axis: Quantity?
    public var addPower: Quantity?
    public var vertexDistance: Quantity?
    public var prismAmount: Quantity?
    public var prismAngle: Quantity?
    public var farPupillaryDistance: Quantity?
    public var nearPupillaryDistance: Quantity?
    public var baseCurve: Quantity?
    public var diameter: Quantity?
    public var extensions: Extensions

    public init() {
        self.extensions = .none
    }

    /// Export attribute stem, HealthKit property name and property of each field, in DTD order:
    /// the one list every reader and writer of a lens goes through.
    public static let fields: [(attribute: String, property: String, keyPath: WritableKeyPath<LensSpecification, Quantity?> & Sendable)] = [
        ("sphere", "sphere", \.sphere), ("cylinder", "cylinder", \.cylinder), ("axis", "axis", \.axis),
        ("add", "addPower", \.addPower), ("vertex", "vertexDistance", \.vertexDistance),
        ("prismAmount", "prismAmount", \.prismAmount), ("prismAngle", "prismAngle", \.prismAngle),
        ("farPD", "farPupillaryDistance", \.farPupillaryDistance), ("nearPD", "nearPupillaryDistance", \.nearPupillaryDistance),
        ("baseCurve", "baseCurve", \.baseCurve), ("diameter", "diameter", \.diameter),
    ]

    /// The field exported as `attribute` (`sphere`, `add`, `farPD`, …); `nil`, and nothing set,
    /// for a name that is none of `fields`.
    public subscript(attribute attribute: String) -> Quantity? {
        get { Self.fields.first { $0.attribute == attribute }.flatMap { self[keyPath: $0.keyPath] } }
        set {
            guard let field = Self.fields.first(where: { $0.attribute == attribute }) else { return }
            self[keyPath: field.keyPath] = newValue
        }
    }
}
