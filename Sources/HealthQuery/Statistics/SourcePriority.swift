import HealthModel

/// Which source's samples win where several sources cover the same time (Health's per-type
/// source priority, which exports do not carry).
///
/// With an explicit list (`--source-priority`), sources rank in that order, unlisted ones after
/// them in order of first appearance. Otherwise the Health app's default tiers: manual entries
/// (`HKWasUserEntered` = 1, or the Health app as source), then Apple Watch, then iPhone (and
/// other Apple devices), then everything else; within a tier, by first appearance.
public final class SourcePriority {
    /// The part of a rank that depends on the sample alone (`Tiers`): a parallel read's
    /// chunks compute it on their own threads (`SummaryRecordBatch`).
    public let tiers: Tiers
    private var firstSeen: [String: Int] = [:]
    /// The last source ranked and its order: samples come in runs of one source, and comparing
    /// an interned name is cheaper than hashing it (`SummaryCollector` says why).
    private var last: (name: String, order: Int)? = nil

    /// - Parameters:
    ///   - explicit: source names, highest priority first.
    ///   - knownOrder: sources already met, in the order they first appeared. A computation
    ///     over part of the data (the store's, recomputing the days an import touched) ranks
    ///     sources as one over all of it would, instead of by which it happens to meet first.
    public init(explicit: [String] = [], knownOrder: [String] = [], healthConnect: HealthConnectPriority? = nil) {
        tiers = Tiers(explicit: explicit, healthConnect: explicit.isEmpty ? healthConnect : nil)
        for name in knownOrder where firstSeen[name] == nil { firstSeen[name] = firstSeen.count }
    }

    /// A rank for one sample: lower wins.
    func rank(of sample: SampleAttributes) -> SourceRank {
        let order = appearanceOrder(of: sample.sourceRevision.source.name)
        let tier = tiers.tier(of: sample)
        return SourceRank(tier: tier.tier, order: tier.listed ? 0 : order)
    }

    /// Where `name` first appeared among the sources ranked so far (numbering it now if this is
    /// its first sample): the order within a tier.
    func appearanceOrder(of name: String) -> Int {
        if let last, last.name == name { return last.order }
        let order: Int
        if let seen = firstSeen[name] {
            order = seen
        } else {
            order = firstSeen.count
            firstSeen[name] = order
        }
        last = (name, order)
        return order
    }

    /// A sample's tier, which needs nothing but the sample and the explicit list: lower wins.
    public struct Tiers: Sendable {
        private let explicit: [String]
        /// A Health Connect export's own priority list, which decides the types Health Connect
        /// totals by priority (`HealthConnectRanking`); `nil` for Apple's exports.
        let healthConnect: HealthConnectPriority?

        init(explicit: [String], healthConnect: HealthConnectPriority? = nil) {
            self.explicit = explicit.map(SourceName.normalized)
            self.healthConnect = healthConnect
        }

        /// Whether a person's own `--source-priority` list was given (it wins over an export's).
        var hasExplicitList: Bool { !explicit.isEmpty }

        /// The tier, and whether the source is on the explicit list (a listed source's tier is
        /// its place on the list, and it needs no order within it).
        func tier(of sample: SampleAttributes) -> (tier: Int, listed: Bool) {
            guard !explicit.isEmpty else { return (SourcePriority.tier(of: sample), false) }
            if let index = explicit.firstIndex(of: SourceName.normalized(sample.sourceRevision.source.name)) { return (index, true) }
            return (explicit.count, false)
        }
    }

    /// How many tiers the Health app's default has (`tier(of:)`: 0 to 3).
    static let defaultTiers = 4

    static func tier(of sample: SampleAttributes) -> Int {
        if case .number(let n)? = sample.metadata["HKWasUserEntered"], n.value == 1 { return 0 }
        if sample.sourceRevision.source.name == "Health" { return 0 }
        if let device = sample.device, device.manufacturer?.hasPrefix("Apple") == true {
            return containsWatch(device.model ?? device.name ?? "") ? 1 : 2
        }
        return 3
    }

    /// Whether `text` contains "watch" in any case: the same answer as
    /// `text.lowercased().contains("watch")` (no other character lowercases to these ASCII
    /// letters), without its allocation and Foundation's string search, once per sample.
    static func containsWatch(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let needle: (UInt8, UInt8, UInt8, UInt8, UInt8) = (0x77, 0x61, 0x74, 0x63, 0x68)
            guard bytes.count >= 5 else { return false }
            // ASCII letters: setting bit 0x20 lowercases them (and leaves other bytes unequal).
            for start in 0...(bytes.count - 5)
            where bytes[start] | 0x20 == needle.0 && bytes[start + 1] | 0x20 == needle.1 && bytes[start + 2] | 0x20 == needle.2
                && bytes[start + 3] | 0x20 == needle.3 && bytes[start + 4] | 0x20 == needle.4
            {
                return true
            }
            return false
        }
    }
}
