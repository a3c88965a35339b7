import Foundation
import HealthModel

/// Computes the changes from an anchor's base snapshot to a new export, in one pass over the new
/// export (HealthKit: `HKAnchoredObjectQuery`).
///
/// Changes come in one canonical order, so that a batch loop can resume by position: first the
/// added objects, in the new export's document order (streamed as they are read), then the
/// deleted objects, by uuid. Samples are immutable, so an edited object is a deletion plus an
/// addition. Memory: the base identity set, a bit per base object, and the new export's identity
/// set (for the next anchor) — no object bodies.
public final class ChangeTracker {
    private let anchor: QueryAnchor
    private var seen: [UInt64]
    private var seenCount = 0
    public private(set) var targetSet = IdentitySet()
    private let keepsTargetSet: Bool
    private let skip: Int
    private let limit: Int?
    private var additions = 0
    public private(set) var emittedAdded = 0
    public private(set) var emittedDeleted = 0
    public private(set) var totalChanges = 0

    /// - Parameters:
    ///   - anchor: what the consumer has seen; `QueryAnchor.origin` for nothing.
    ///   - limit: the most changes to return (a batch).
    ///   - keepsNewAnchor: whether `finish` must return a usable new anchor (keeping the new
    ///     export's identity set costs about 20 bytes per object; a diff without
    ///     `--anchor-output` does not need it).
    public init(anchor: QueryAnchor, limit: Int?, keepsNewAnchor: Bool = true) {
        self.anchor = anchor
        self.keepsTargetSet = keepsNewAnchor || anchor.target != nil
        self.seen = Array(repeating: 0, count: anchor.base.count / 64 + 1)
        self.skip = anchor.target == nil ? 0 : anchor.position
        self.limit = limit
    }

    private var emitted: Int { emittedAdded + emittedDeleted }

    private func wants(_ ordinal: Int) -> Bool {
        ordinal >= skip && (limit.map { emitted < $0 } ?? true)
    }

    /// Checks, before any change is returned, that a batch loop in progress continues over the
    /// same export it started with.
    public func checkTarget(exportDate: Int64?) throws {
        if anchor.target != nil, anchor.targetExportDate != exportDate {
            throw AnchorError(
                "the anchor is in the middle of a batch loop over another export; finish that loop, or start again without \(argument: .anchor, neutral: "an anchor")")
        }
    }

    /// Feeds one object of the new export that the query admits.
    public func consume(_ object: HealthObject, added: (HealthObject) throws -> Void) rethrows {
        let uuid = object.uuid
        if keepsTargetSet { targetSet.insert(uuid, type: object.objectType.identifier) }
        if let index = anchor.base.index(of: uuid) {
            if seen[index / 64] & (1 << UInt64(index % 64)) == 0 {
                seen[index / 64] |= 1 << UInt64(index % 64)
                seenCount += 1
            }
            return
        }
        let ordinal = additions
        additions += 1
        if wants(ordinal) {
            try added(object)
            emittedAdded += 1
        }
    }

    /// Whether enough of the base was found in the new export for the anchor to belong to it:
    /// as many matches as `verify` needs (5 % of the base).
    public var hasMatchedBase: Bool {
        anchor.base.count < 50 || seenCount * 20 >= anchor.base.count
    }

    /// After the last object, before any deletion is reported: refuses an anchor that cannot
    /// belong to this export.
    public func verify() throws {
        let base = anchor.base
        if base.count >= 50 && seenCount * 20 < base.count {
            throw AnchorError(
                "the anchor does not belong to this export: only \(seenCount) of its \(base.count) objects are in it")
        }
    }

    /// After the last object: returns the deletions (uuid and type, by uuid) and the new anchor
    /// (which has an empty base when the tracker was told not to keep it).
    ///
    /// - Throws: `AnchorError` when the anchor cannot belong to this export, or a resumed loop
    ///   meets another export than the one it started with.
    public func finish(exportDate: Int64?, deleted: (ObjectUUID, String) throws -> Void) throws -> QueryAnchor {
        targetSet.finish()
        let base = anchor.base
        try verify()
        if let target = anchor.target, target != targetSet.digest {
            throw AnchorError("the anchor is in the middle of a batch loop over another export")
        }
        var ordinal = additions
        for index in 0..<base.count where seen[index / 64] & (1 << UInt64(index % 64)) == 0 {
            if wants(ordinal) {
                try deleted(base.uuids[index], base.type(at: index))
                emittedDeleted += 1
            }
            ordinal += 1
        }
        totalChanges = ordinal
        let position = skip + emitted
        if position >= totalChanges {
            // Caught up: the new export is the base from now on.
            return QueryAnchor(base: targetSet, baseExportDate: exportDate, queryHash: anchor.queryHash)
        }
        return QueryAnchor(
            base: base, baseExportDate: anchor.baseExportDate, queryHash: anchor.queryHash, target: targetSet.digest,
            targetExportDate: exportDate, position: position)
    }
}
