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
        updateSampleAttributes { sample in
            defer { sample.device = nil }
            return sample.device
        } ?? nil
    }

    /// Puts a device taken by `takeDevice` back.
    mutating func restoreDevice(_ device: Device) {
        updateSampleAttributes { $0.device = device }
    }
}
