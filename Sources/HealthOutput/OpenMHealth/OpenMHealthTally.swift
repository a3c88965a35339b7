/// What an Open mHealth run wrote and what it left out: the data points per schema, and the
/// objects (or a day's values) no schema takes, by reason, with counts.
///
/// Open mHealth has schemas for a few measures only; everything else is left out rather than
/// forced into a body that means something else, and the CLI prints each reason with its count
/// as a warning (`omh: 12 left out: …`), so a study sees what it did not get. Counted after the
/// policy gate: a type the policy denies is never named here.
public struct OpenMHealthTally: Sendable, Equatable {
    /// Data points written, by schema (counted by value: no text is made per point).
    private var counts: [OpenMHealthSchema: Int] = [:]
    /// Data points written, by schema (`omh:heart-rate:2.0`).
    public var written: [String: Int] {
        Dictionary(uniqueKeysWithValues: counts.map { ($0.key.text, $0.value) })
    }
    /// What was not written, by reason, with counts.
    public internal(set) var leftOut: [String: Int] = [:]

    public init() {}

    mutating func add(_ schema: OpenMHealthSchema) {
        counts[schema, default: 0] += 1
    }

    mutating func leaveOut(_ reason: String) {
        leftOut[reason, default: 0] += 1
    }

    /// Data points written in all.
    public var total: Int { counts.values.reduce(0, +) }

    /// One line per schema, in name order: `heart-rate 2.0: 1234 data points`.
    public var lines: [String] {
        written.keys.sorted().map { key in
            let parts = key.split(separator: ":")
            return "\(parts.dropFirst().joined(separator: " ")): \(written[key] ?? 0) data points"
        }
    }
}
