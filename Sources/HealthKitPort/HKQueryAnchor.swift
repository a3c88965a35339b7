import Foundation
import HealthEngine
import HealthQuery
import HealthStore

/// A position in what an anchored query has seen (HealthKit: `HKQueryAnchor`).
///
/// Opaque as in HealthKit. Underneath it is one of healthport's two anchors, because the two
/// inputs keep history differently:
/// - over a **store**, the store's anchor token, the one `healthport changes --store` prints
///   as `newAnchor` (opaque there too: the last change the query saw, never the store's
///   position, so nothing about types the policy hides can be read from it), so an anchor
///   saved by a shell job and one saved by Swift code are interchangeable
///   (`HKQueryAnchor(token:)`);
/// - over an **export**, the anchor `healthport anchor` and `healthport changes EXPORT
///   --anchor-output` write: the identity set of what the query has seen, so that a later
///   export of the same person answers with what was added and deleted since.
///
/// Anchors belong to their kind of input (a store's anchor over an export, or the reverse, is
/// `errorInvalidArgument`), a store's anchor to its store, and an export's anchor to the query
/// it was made for (types, predicate and policy).
///
/// Like HealthKit's, it supports secure coding, so the way an app keeps its anchor between
/// launches works unchanged:
/// ```swift
/// let data = try NSKeyedArchiver.archivedData(withRootObject: anchor, requiringSecureCoding: true)
/// let saved = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)
/// ```
public final class HKQueryAnchor: NSObject, NSSecureCoding, @unchecked Sendable {
    /// Which input the anchor is a position in, as the engine keeps it: a store's token (or
    /// `0` for the origin), or an export's anchor (`healthport anchor`'s file format).
    let position: ChangesAnchor

    /// The store's anchor token; `nil` for an export's anchor.
    var token: String? {
        if case .store(let token) = position { return token }
        return nil
    }

    /// An anchor from its number (HealthKit: `init(fromValue:)`, kept for the integer anchors
    /// of the iOS 8 API). Store anchors are tokens now: 0 (HealthKit's
    /// `HKAnchoredObjectQueryNoAnchor`) is the origin of any store; any other number is no
    /// store's anchor, and a query with it fails with `errorInvalidArgument`.
    public init(fromValue value: Int) {
        position = .store(String(value))
        super.init()
    }

    /// A store's anchor as `healthport changes --store` prints it (its `newAnchor` token).
    public init(token: String) {
        position = .store(token)
        super.init()
    }

    /// An anchor as the engine returned it.
    init(_ anchor: ChangesAnchor) {
        position = anchor
        super.init()
    }

    /// The key the anchor is archived under: a store's token as text, an export's anchor in
    /// its file format (checksummed, so a damaged archive is refused rather than misread).
    static let archiveKey = "healthportAnchor"

    /// Anchors are decoded only as this class (HealthKit: `supportsSecureCoding`).
    public static var supportsSecureCoding: Bool { true }

    /// Archives the anchor (HealthKit: `NSSecureCoding`): the bytes `healthport` itself
    /// saves, a store's token as text or an export's anchor file.
    public func encode(with coder: NSCoder) {
        let bytes: Data
        switch position {
        case .store(let token): bytes = Data("\(token)\n".utf8)
        case .export(let anchor): bytes = Data(anchor.encoded())
        }
        coder.encode(bytes as NSData, forKey: Self.archiveKey)
    }

    /// Reads an archived anchor; `nil` (a failed decode) for anything that is not one.
    public init?(coder: NSCoder) {
        guard let data = coder.decodeObject(of: NSData.self, forKey: Self.archiveKey) as Data? else { return nil }
        if data.starts(with: Data("HPANCHOR".utf8)) {
            guard let anchor = try? QueryAnchor(decoding: Array(data)) else { return nil }
            position = .export(anchor)
        } else {
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            // A token, or a number (`init(fromValue:)` keeps what it was given, and archiving
            // gives it back; a store refuses numbers other than 0 when the anchor is used).
            guard StoreAnchor.looksLikeToken(text) || Int(text).map({ $0 >= 0 }) == true else { return nil }
            position = .store(text)
        }
        super.init()
    }

    /// Two anchors are equal when they stand for the same position: the same store token, or
    /// the same export anchor (what was seen, for which query, and how far a batch loop got).
    public override func isEqual(_ object: Any?) -> Bool { (object as? HKQueryAnchor)?.position == position }

    /// Consistent with `isEqual(_:)`, so anchors can be kept in sets and dictionaries.
    public override var hash: Int {
        switch position {
        case .store(let token): return token.hashValue
        case .export(let anchor): return anchor.base.digest.hashValue ^ anchor.position
        }
    }

    /// `HKQueryAnchor(s1…)` for a store's anchor (its token); an export's anchor says how many
    /// objects it has seen (and, within a batch loop over an export, how many of its changes
    /// were returned).
    public override var description: String {
        switch position {
        case .store(let token): return "HKQueryAnchor(\(token))"
        case .export(let anchor):
            return "HKQueryAnchor(export: \(anchor.base.count) objects"
                + (anchor.target == nil ? ")" : ", batch loop at \(anchor.position))")
        }
    }
}
