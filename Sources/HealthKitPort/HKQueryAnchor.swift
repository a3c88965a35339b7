import Foundation
import HealthQuery

/// A position in what an anchored query has seen (HealthKit: `HKQueryAnchor`).
///
/// Opaque as in HealthKit. Underneath it is one of healthport's two anchors, because the two
/// inputs keep history differently:
/// - over a **store**, the store's anchor number, the one `healthport changes --store` prints
///   as `newAnchor`, so an anchor saved by a shell job and one saved by Swift code are
///   interchangeable (`HKQueryAnchor(fromValue:)`);
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
    /// Which input the anchor is a position in.
    enum Position: Equatable {
        /// A store's anchor number.
        case store(Int)
        /// An export anchor (`healthport anchor`'s file format).
        case export(QueryAnchor)
    }

    let position: Position

    /// The store's anchor number; `nil` for an export's anchor.
    var value: Int? {
        if case .store(let value) = position { return value }
        return nil
    }

    /// An anchor from its number (HealthKit: `init(fromValue:)`, kept for the integer anchors
    /// of the iOS 8 API); here the number `healthport changes --store` prints. A number is
    /// always a store's anchor.
    public init(fromValue value: Int) {
        position = .store(value)
        super.init()
    }

    /// An export's anchor, as the engine returned it.
    init(_ anchor: QueryAnchor) {
        position = .export(anchor)
        super.init()
    }

    /// The key the anchor is archived under: a store's number as text, an export's anchor in
    /// its file format (checksummed, so a damaged archive is refused rather than misread).
    static let archiveKey = "healthportAnchor"

    /// Anchors are decoded only as this class (HealthKit: `supportsSecureCoding`).
    public static var supportsSecureCoding: Bool { true }

    /// Archives the anchor (HealthKit: `NSSecureCoding`): the bytes `healthport` itself
    /// saves, a store's number as text or an export's anchor file.
    public func encode(with coder: NSCoder) {
        let bytes: Data
        switch position {
        case .store(let value): bytes = Data("\(value)\n".utf8)
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
            guard let value = Int(text), value >= 0 else { return nil }
            position = .store(value)
        }
        super.init()
    }

    /// Two anchors are equal when they stand for the same position: the same store number, or
    /// the same export anchor (what was seen, for which query, and how far a batch loop got).
    public override func isEqual(_ object: Any?) -> Bool { (object as? HKQueryAnchor)?.position == position }

    /// Consistent with `isEqual(_:)`, so anchors can be kept in sets and dictionaries.
    public override var hash: Int {
        switch position {
        case .store(let value): return value
        case .export(let anchor): return anchor.base.digest.hashValue ^ anchor.position
        }
    }

    /// `HKQueryAnchor(5)` for a store's anchor; an export's anchor says how many objects it has
    /// seen (and, within a batch loop over an export, how many of its changes were returned).
    public override var description: String {
        switch position {
        case .store(let value): return "HKQueryAnchor(\(value))"
        case .export(let anchor):
            return "HKQueryAnchor(export: \(anchor.base.count) objects"
                + (anchor.target == nil ? ")" : ", batch loop at \(anchor.position))")
        }
    }
}
