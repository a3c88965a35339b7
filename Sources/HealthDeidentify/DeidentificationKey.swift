import Crypto
import Foundation

/// The secret behind every de-identified output: 32 random bytes, from which each rule derives a
/// key of its own (the date shift, the pseudonyms, the uuids), so no output reveals anything
/// about another rule's key.
///
/// Whoever holds the key can repeat the de-identification exactly (the same shift and the same
/// pseudonyms for the same person, export after export, which is what lets a study add a
/// person's later exports); whoever does not cannot undo it or link a pseudonym to its name.
/// Nothing written by healthport contains the secret; the manifest names the key by
/// `identifier`, a value derived from it that says which key was used and nothing more.
///
/// For example:
/// ```swift
/// let key = try DeidentificationKeyFile.loadOrCreate(at: "study.key").key
/// key.identifier   // "5c0f3a9e1b7d2c44"
/// ```
public struct DeidentificationKey: Sendable, Equatable {
    /// The secret's length in bytes (256 bits).
    public static let secretLength = 32

    /// The secret's bytes (kept as bytes: Crypto's `SymmetricKey` is not `Sendable` on every
    /// platform, and a key crosses threads with the query that carries it).
    let secretBytes: [UInt8]

    /// - Parameter secret: exactly `secretLength` bytes; `nil` otherwise.
    public init?(secret bytes: [UInt8]) {
        guard bytes.count == Self.secretLength else { return nil }
        secretBytes = bytes
    }

    var secret: SymmetricKey { SymmetricKey(data: secretBytes) }

    /// A new key from the system's cryptographic random source.
    public static func random() -> DeidentificationKey {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<secretLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return DeidentificationKey(secret: bytes)!
    }

    /// A key for one purpose: HMAC-SHA256 of the purpose's label under the secret. The label
    /// carries the method's version, so a later method can never reuse an earlier one's keys.
    func derivedKey(_ purpose: String) -> SymmetricKey {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("healthport-deidentify-v1/\(purpose)".utf8), using: secret)
        return SymmetricKey(data: Array(mac))
    }

    /// Names the key without revealing it (16 hex digits derived from it): two manifests with the
    /// same identifier were made with the same key, and the identifier says nothing else.
    public var identifier: String {
        derivedKey("key-identifier").withUnsafeBytes { $0.prefix(8).map { String(format: "%02x", $0) }.joined() }
    }
}
