/// A set of the store's anchors, one bit each (a million anchors in 128 KB): the objects an
/// import met again, and those of its own platform, without a uuid per object in memory.
struct AnchorSet {
    private var words: [UInt64]
    /// The number of anchors in the set.
    private(set) var count = 0

    /// An empty set for the anchors 0 through `last`.
    init(upTo last: Int64) {
        words = Array(repeating: 0, count: Int(max(last, 0)) / 64 + 1)
    }

    func contains(_ anchor: Int64) -> Bool {
        guard anchor >= 0, Int(anchor) / 64 < words.count else { return false }
        return words[Int(anchor) / 64] & (1 << UInt64(anchor % 64)) != 0
    }

    /// Adds an anchor of 0 through `last` (the bound it was made with).
    mutating func insert(_ anchor: Int64) {
        let word = Int(anchor) / 64
        let bit: UInt64 = 1 << UInt64(anchor % 64)
        if words[word] & bit == 0 {
            words[word] |= bit
            count += 1
        }
    }
}
