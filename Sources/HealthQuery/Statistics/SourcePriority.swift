import HealthModel

/// Which source's samples win where several sources cover the same time (Health's per-type
/// source priority, which exports do not carry).
///
/// With an explicit list (`--source-priority`), sources rank in that order, unlisted ones after
/// them in order of first appearance. Otherwise the Health app's default tiers: manual entries
/// (`HKWasUserEntered` = 1, or the Health app as source), then Apple Watch, then iPhone (and
/// other Apple devices), then everything else; within a tier, by first appearance.
public final class SourcePriority {
    private let explicit: [String]
    private var firstSeen: [String: Int] = [:]

    public init(explicit: [String] = []) {
        self.explicit = explicit.map(SourceName.normalized)
    }

    /// A rank for one sample: lower wins.
    func rank(of sample: SampleAttributes) -> (Int, Int) {
        let name = sample.sourceRevision.source.name
        let order: Int
        if let seen = firstSeen[name] {
            order = seen
        } else {
            order = firstSeen.count
            firstSeen[name] = order
        }
        if !explicit.isEmpty {
            if let index = explicit.firstIndex(of: SourceName.normalized(name)) { return (index, 0) }
            return (explicit.count, order)
        }
        return (Self.tier(of: sample), order)
    }

    static func tier(of sample: SampleAttributes) -> Int {
        if case .number(let n)? = sample.metadata["HKWasUserEntered"], n.value == 1 { return 0 }
        if sample.sourceRevision.source.name == "Health" { return 0 }
        if let device = sample.device, device.manufacturer?.hasPrefix("Apple") == true {
            let model = (device.model ?? device.name ?? "").lowercased()
            return model.contains("watch") ? 1 : 2
        }
        return 3
    }
}
