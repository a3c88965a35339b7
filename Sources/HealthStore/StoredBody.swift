import HealthModel

/// How an object is kept in a row: healthport's JSON for it (`healthport-formats(5)`) without
/// what the row's columns already hold — the leading `kind`, `uuid` and `sampleType` members,
/// and the top-level sample's device, kept once per distinct device in `devices`. It halves
/// the store (devices alone were a third of every sample's JSON), and so the pages an import
/// writes.
enum StoredBody {
    /// Kinds whose JSON has `sampleType` right after `uuid`.
    static func hasSampleType(_ kind: String) -> Bool {
        switch kind {
        case "quantitySample", "categorySample", "correlation", "workout", "audiogram", "visionPrescription", "electrocardiogram":
            return true
        default:
            return false
        }
    }

    static func prefix(kind: String, uuid: String, type: String) -> [UInt8] {
        var text = #"{"kind":""# + kind + #"","uuid":""# + uuid + #"","#
        if hasSampleType(kind) { text += #""sampleType":""# + type + #"","# }
        return Array(text.utf8)
    }

    /// The JSON to store. A body whose start is not the expected prefix (a type identifier that
    /// JSON must escape) is kept whole; `restore` recognizes it by its `{"kind":` start.
    static func strip(_ json: [UInt8], kind: String, uuid: String, type: String) -> [UInt8] {
        let prefix = prefix(kind: kind, uuid: uuid, type: type)
        guard json.count > prefix.count, json.starts(with: prefix) else { return json }
        return [0x7B] + json[prefix.count...]
    }

    /// The object's full JSON again.
    static func restore(_ stored: String, kind: String, uuid: String, type: String) -> [UInt8] {
        let bytes = Array(stored.utf8)
        if bytes.starts(with: Array(#"{"kind":"#.utf8)) { return bytes }
        return prefix(kind: kind, uuid: uuid, type: type) + bytes.dropFirst()
    }
}

extension HealthObject {
    /// Removes and returns the top-level sample's device.
    mutating func takeDevice() -> Device? {
        switch self {
        case .quantitySample(var o):
            defer { self = .quantitySample(o) }
            let device = o.sample.device
            o.sample.device = nil
            return device
        case .categorySample(var o):
            defer { self = .categorySample(o) }
            let device = o.sample.device
            o.sample.device = nil
            return device
        case .correlation(var o):
            defer { self = .correlation(o) }
            let device = o.sample.device
            o.sample.device = nil
            return device
        case .workout(var o):
            defer { self = .workout(o) }
            let device = o.sample.device
            o.sample.device = nil
            return device
        case .audiogram(var o):
            defer { self = .audiogram(o) }
            let device = o.sample.device
            o.sample.device = nil
            return device
        default:
            return nil
        }
    }

    /// Puts a device taken by `takeDevice` back.
    mutating func restoreDevice(_ device: Device) {
        switch self {
        case .quantitySample(var o):
            o.sample.device = device
            self = .quantitySample(o)
        case .categorySample(var o):
            o.sample.device = device
            self = .categorySample(o)
        case .correlation(var o):
            o.sample.device = device
            self = .correlation(o)
        case .workout(var o):
            o.sample.device = device
            self = .workout(o)
        case .audiogram(var o):
            o.sample.device = device
            self = .audiogram(o)
        default:
            break
        }
    }
}
