import Crypto

/// Ids of what healthport makes besides its objects (FHIR's devices, sources and patient, the
/// days' and nights' Observations), derived from what each says, so the same export gives the
/// same ids on every run and a server that stores them is updated, not duplicated.
///
/// The first 16 bytes of SHA-256 over `healthport FHIR <domain>` and the fields, each tagged (an
/// absent field is not an empty one) and length-prefixed (fields stay apart), in the uuid form of
/// RFC 9562's version 8. The spelling of the domain is part of every id written so far: it never
/// changes.
public enum DerivedResourceID {
    /// The id for `fields` in `domain` (`Device`, `Source`, `Patient`, `Daily Observation`, …).
    public static func derive(_ domain: String, _ fields: [String?]) -> ObjectUUID {
        var hasher = SHA256()
        hasher.update(data: Array("healthport FHIR \(domain)".utf8))
        for field in fields {
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
