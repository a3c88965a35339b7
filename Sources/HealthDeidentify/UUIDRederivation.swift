import Crypto
import Foundation
import HealthModel
import _CryptoExtras

/// New uuids for de-identified objects: a keyed permutation of the original uuid.
///
/// healthport derives an object's uuid from its content (`ObjectIdentity`), so anyone holding
/// the original export could compute it and find the object in a de-identified output by it.
/// Here each uuid is enciphered with one block of AES-256 under the key's uuid key, then given
/// the version-8 and variant bits of healthport's uuids: the same object gets the same new uuid
/// for one key (a correlation still names its members, anchored changes and joins between tables
/// keep working within a study), another key gives an unrelated one, and without the key the new
/// uuid says nothing about the old. One block cipher call per object, about as cheap as a hash.
public struct UUIDRederivation {
    private let key: SymmetricKey

    public init(key: DeidentificationKey) {
        // AES-256 takes the derived 32 bytes as they are.
        self.key = key.derivedKey("uuid")
    }

    /// The de-identified uuid of `uuid`.
    @inline(__always)
    public func rederive(_ uuid: ObjectUUID) -> ObjectUUID {
        // A block on the stack: this runs once per object.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { buffer -> ObjectUUID in
            var block = buffer
            for i in 0..<8 {
                block[i] = UInt8(truncatingIfNeeded: uuid.high >> (56 - 8 * UInt64(i)))
                block[8 + i] = UInt8(truncatingIfNeeded: uuid.low >> (56 - 8 * UInt64(i)))
            }
            // A 16-byte block and a 256-bit key: the only errors `permute` throws cannot happen.
            try! AES.permute(&block, key: key)
            var high = UInt64(0)
            var low = UInt64(0)
            for i in 0..<8 {
                high = high << 8 | UInt64(block[i])
                low = low << 8 | UInt64(block[8 + i])
            }
            // RFC 9562: version 8 (custom), variant 0b10, as `ObjectIdentity` sets them.
            high = (high & ~UInt64(0xF000)) | 0x8000
            low = (low & ~(UInt64(0xC0) << 56)) | (UInt64(0x80) << 56)
            return ObjectUUID(high: high, low: low)
        }
    }

    /// A uuid printed by HealthKit itself (a workout activity's), enciphered the same way; text
    /// that is not a uuid is replaced by the uuid of its bytes' hash, never kept.
    public func rederive(text: String) -> String {
        if let uuid = ObjectUUID(uuidString: text) { return rederive(uuid).uuidString }
        let digest = Array(SHA256.hash(data: Data(text.utf8)))
        let high = digest[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = digest[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return rederive(ObjectUUID(high: high, low: low)).uuidString
    }
}
