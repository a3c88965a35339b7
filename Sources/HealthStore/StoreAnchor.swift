import Foundation
import _CryptoExtras
import Crypto

/// A position in a store's change sequence, as a consumer holds it: an opaque token
/// (HealthKit: `HKQueryAnchor` is opaque too).
///
/// The store numbers its changes (every object added and every tombstone gets the next
/// position); positions are global, across every type. Shown in the clear, they told a
/// consumer allowed only steps how many objects of the types it may not read the store holds
/// and when they change (an import that deleted 50 hidden heart rates moved it from 5502 to
/// 5552). So a consumer never sees a position:
/// - the anchor a query returns is the position of the last change *that query sees*, so an
///   import that touches only hidden types leaves its answer, anchor included, as it was;
/// - and that position is given as a token: the position and a check value, enciphered with a
///   key the store keeps (`store_info.anchor_key`, random, made when the store is created or
///   upgraded). One block of AES: the same position always gives the same token (an unchanged
///   answer is byte for byte the same), nothing can be learnt from two tokens but whether they
///   are equal, and a token from another store, or made up, fails the check.
///
/// The position itself is `package`: the engine uses it, no face or library user does.
public struct StoreAnchor: Sendable, Hashable, CustomStringConvertible {
    /// The position in the change sequence: 0 is the origin (before the first change).
    package let position: Int
    /// The token faces print and take back (`s1` and 22 characters of base64url).
    public let token: String

    public var description: String { token }

    /// Whether `text` has the shape of a token (the store decides whether it is one of its own).
    public static func looksLikeToken(_ text: String) -> Bool {
        text.utf8.count == prefix.utf8.count + 22 && text.hasPrefix(prefix)
            && text.utf8.dropFirst(prefix.utf8.count).allSatisfy { byte in
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
            }
    }

    /// The text a consumer passes for "from the beginning" (HealthKit's `HKAnchoredObjectQueryNoAnchor`
    /// is 0): accepted by every store; never printed (the origin, too, is printed as a token).
    public static let originText = "0"

    static let prefix = "s1"
}

/// The store's anchor key and what it does: positions to tokens and back.
struct StoreAnchorCipher {
    /// The check value in the block's second half: a block that deciphers to anything else
    /// was not made with this key.
    private static let check: [UInt8] = Array("hpanchor".utf8)
    let key: SymmetricKey

    init(keyBytes: [UInt8]) { key = SymmetricKey(data: keyBytes) }

    func anchor(position: Int) -> StoreAnchor {
        var block = [UInt8](repeating: 0, count: 16)
        let value = UInt64(position).bigEndian
        withUnsafeBytes(of: value) { for (index, byte) in $0.enumerated() { block[index] = byte } }
        for (index, byte) in Self.check.enumerated() { block[8 + index] = byte }
        // A 16-byte block and a 128-bit key: the only errors AES.permute throws cannot happen.
        try! AES.permute(&block, key: key)
        return StoreAnchor(position: position, token: StoreAnchor.prefix + Self.base64URL(block))
    }

    /// The position a token stands for; `nil` when it is not a token of this store.
    func position(of token: String) -> Int? {
        guard StoreAnchor.looksLikeToken(token), var block = Self.bytes(base64URL: String(token.dropFirst(StoreAnchor.prefix.count))),
            block.count == 16
        else { return nil }
        try! AES.inversePermute(&block, key: key)
        guard Array(block[8..<16]) == Self.check else { return nil }
        let value = block[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard value <= UInt64(Int.max) else { return nil }
        return Int(value)
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func bytes(base64URL text: String) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.utf8.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map(Array.init)
    }
}
