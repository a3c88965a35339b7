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

    /// Export attribute stem and HealthKit property name of each field, in DTD order.
    public static let fields: [(attribute: String, property: String)] = [
        ("sphere", "sphere"), ("cylinder", "cylinder"), ("axis", "axis"), ("add", "addPower"),
        ("vertex", "vertexDistance"), ("prismAmount", "prismAmount"), ("prismAngle", "prismAngle"),
        ("farPD", "farPupillaryDistance"), ("nearPD", "nearPupillaryDistance"),
        ("baseCurve", "baseCurve"), ("diameter", "diameter"),
    ]

    /// The field exported as `attribute` (`sphere`, `add`, `farPD`, …).
    public subscript(attribute attribute: String) -> Quantity? {
        get {
            switch attribute {
            case "sphere": return sphere
            case "cylinder": return cylinder
            case "axis": return axis
            case "add": return addPower
            case "vertex": return vertexDistance
            case "prismAmount": return prismAmount
            case "prismAngle": return prismAngle
            case "farPD": return farPupillaryDistance
            case "nearPD": return nearPupillaryDistance
            case "baseCurve": return baseCurve
            case "diameter": return diameter
            default: return nil
            }
        }
        set {
            switch attribute {
            case "sphere": sphere = newValue
            case "cylinder": cylinder = newValue
            case "axis": axis = newValue
            case "add": addPower = newValue
            case "vertex": vertexDistance = newValue
            case "prismAmount": prismAmount = newValue
            case "prismAngle": prismAngle = newValue
            case "farPD": farPupillaryDistance = newValue
            case "nearPD": nearPupillaryDistance = newValue
            case "baseCurve": baseCurve = newValue
            case "diameter": diameter = newValue
            default: break
            }
        }
    }
}
