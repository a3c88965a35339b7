import Crypto
import HealthModel

/// Ids of the resources healthport makes besides its objects' Observations: devices, sources and
/// the patient, derived from what each resource says, so the same export gives the same ids on
/// every run and a server that stores them is updated, not duplicated.
///
/// An object's resource takes the object's own uuid (`ObjectIdentity`); these take the first 16
/// bytes of SHA-256 over a domain name and the resource's fields, in the same uuid form (RFC 9562
/// version 8). The Patient's id is `PersonIdentity`'s, the same algorithm over the sex and birth
/// date the consumer may see (an id derived from a date of birth the policy hides could be
/// reversed by trying every date), or a de-identified output's pseudonym.
enum FHIRResourceID {
    /// The id for `fields` in `domain` (`Device`, `Source`, `Patient`).
    static func derive(_ domain: String, _ fields: [String?]) -> ObjectUUID {
        var hasher = SHA256()
        hasher.update(data: Array("healthport FHIR \(domain)".utf8))
        for field in fields {
            // A tag byte tells an absent field from an empty one; the length keeps fields apart.
            if let field {
                let bytes = Array(field.utf8)
                hasher.update(data: [1])
                withUnsafeBytes(of: UInt64(bytes.count).bigEndian) { hasher.update(bufferPointer: $0) }
                hasher.update(data: bytes)
            } else {
                hasher.update(data: [0])
            }
        }
        return hasher.finalize().withUnsafeBytes { raw in
            var high = UInt64(0)
            var low = UInt64(0)
            for i in 0..<8 { high = (high << 8) | UInt64(raw[i]) }
            for i in 8..<16 { low = (low << 8) | UInt64(raw[i]) }
            high = (high & ~UInt64(0xF000)) | 0x8000
            low = (low & ~(UInt64(0xC0) << 56)) | (UInt64(0x80) << 56)
            return ObjectUUID(high: high, low: low)
        }
    }
}
