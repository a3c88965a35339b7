import Crypto
import Foundation
import HealthModel

/// Keyed pseudonyms for identifying strings: `source-3f9a1c2b7d04` for `Simon’s iPhone`.
///
/// HMAC-SHA256 of the kind and the text under the key's pseudonym key, of which the first six
/// bytes are printed: the same text gives the same pseudonym for one key (in every export and
/// every person converted with it, so a study can still tell one source from another), another
/// key gives another, and without the key a pseudonym cannot be turned back into its text or
/// matched to it. The kind is part of the input, so a device and a source with the same name
/// get unrelated pseudonyms. Forty-eight bits keep collisions out of reach of any one study
/// (two texts share a pseudonym with a chance of about one in 10¹⁴ per pair).
///
/// Remembers the last texts it was asked for: an export holds millions of samples from a
/// handful of sources, and a hit costs a string comparison instead of a MAC.
public final class Pseudonyms {
    /// What a pseudonym stands for; its prefix. `app` is an app's identifier (a Health Connect
    /// record's Android package name, `Source.bundleIdentifier`), which a Health Connect
    /// export's priority list names apps by.
    public enum Kind: String, Sendable, CaseIterable {
        case source, device, person, file, app
    }

    private let key: SymmetricKey
    private var known: [Kind: [String: String]] = [:]
    /// The last source names met (at most eight) and their pseudonyms: records alternate
    /// between a few sources, and comparing an interned name is cheaper than hashing it. (Two
    /// arrays, not an array of tuples: a tuple's type metadata was looked up at run time on
    /// every record, in a profile.)
    private var recentSources: [String] = []
    private var recentSourcePseudonyms: [String] = []

    public init(key: DeidentificationKey) {
        self.key = key.derivedKey("pseudonym")
    }

    /// The pseudonym of `text` as a `kind`.
    public func pseudonym(_ text: String, as kind: Kind) -> String {
        if kind == .source {
            for index in recentSources.indices where Self.sameBytes(recentSources[index], text) { return recentSourcePseudonyms[index] }
        }
        if let found = known[kind]?[text] {
            if kind == .source { remember(text, found) }
            return found
        }
        let made = Self.make(text, as: kind, key: key)
        // Bounded: a hostile export with a million distinct names is pseudonymized without caching them all.
        if known[kind, default: [:]].count < 10_000 { known[kind, default: [:]][text] = made }
        if kind == .source { remember(text, made) }
        return made
    }

    /// Byte equality: `==` compares by canonical equivalence, which for a name that is not
    /// ASCII (`Simon’s iPhone`) walks both strings' scalars on every record.
    @inline(__always)
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        let count = a.utf8.count
        guard count == b.utf8.count else { return false }
        guard count > 0 else { return true }
        let compared = a.utf8.withContiguousStorageIfAvailable { left in
            b.utf8.withContiguousStorageIfAvailable { right in memcmp(left.baseAddress!, right.baseAddress!, count) == 0 }
        }
        return compared.flatMap { $0 } ?? a.utf8.elementsEqual(b.utf8)
    }

    private func remember(_ source: String, _ pseudonym: String) {
        if recentSources.count == 8 {
            recentSources.removeFirst()
            recentSourcePseudonyms.removeFirst()
        }
        recentSources.append(source)
        recentSourcePseudonyms.append(pseudonym)
    }

    static func make(_ text: String, as kind: Kind, key: SymmetricKey) -> String {
        var message = Data(kind.rawValue.utf8)
        message.append(0)
        message.append(contentsOf: text.utf8)
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: key)
        return kind.rawValue + "-" + mac.withUnsafeBytes { $0.prefix(6).map { String(format: "%02x", $0) }.joined() }
    }
}
