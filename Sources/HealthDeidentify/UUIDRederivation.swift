import Crypto
import Foundation
import HealthModel

/// New uuids for de-identified objects: a keyed pseudorandom function of the original uuid.
///
/// healthport derives an object's uuid from its content (`ObjectIdentity`), so anyone holding
/// the original export could compute it and find the object in a de-identified output by it.
/// Here each uuid's 16 bytes go through SipHash-2-4 with a 128-bit output, keyed with 128 bits
/// derived from the key (`SipHash128`), and the result gets the version-8 and variant bits of
/// healthport's uuids: the same object gets the same new uuid for one key (a correlation still
/// names its members, anchored changes and joins between tables keep working within a study),
/// another key gives an unrelated one, and without the key the new uuid says nothing about the
/// old. Two objects could in principle get one new uuid; with 122 random bits the chance is
/// about one in 10²⁵ for a billion objects.
public struct UUIDRederivation {
    private let function: SipHash128

    public init(key: DeidentificationKey) {
        function = SipHash128(key: key.derivedKey("uuid").withUnsafeBytes { Array($0.prefix(16)) })
    }

    /// The de-identified uuid of `uuid`. Once per object: two words in, two words out.
    @inline(__always)
    public func rederive(_ uuid: ObjectUUID) -> ObjectUUID {
        // The uuid's bytes as printed (big-endian), read as SipHash reads bytes (little-endian).
        let (a, b) = function.tag(uuid.high.byteSwapped, uuid.low.byteSwapped)
        var high = a.byteSwapped
        var low = b.byteSwapped
        // RFC 9562: version 8 (custom), variant 0b10, as `ObjectIdentity` sets them.
        high = (high & ~UInt64(0xF000)) | 0x8000
        low = (low & ~(UInt64(0xC0) << 56)) | (UInt64(0x80) << 56)
        return ObjectUUID(high: high, low: low)
    }

    /// A uuid printed by HealthKit itself (a workout activity's), re-derived the same way; text
    /// that is not a uuid is replaced by the re-derived uuid of its bytes' hash, never kept.
    public func rederive(text: String) -> String {
        if let uuid = ObjectUUID(uuidString: text) { return rederive(uuid).uuidString }
        let digest = Array(SHA256.hash(data: Data(text.utf8)))
        let high = digest[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = digest[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return rederive(ObjectUUID(high: high, low: low)).uuidString
    }
}
