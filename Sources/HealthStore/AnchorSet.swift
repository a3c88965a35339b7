/// A set of the store's anchors: the objects an import met again, and those of its own
/// platform, without a uuid per object in memory.
///
/// One bit an anchor (a million anchors in 128 KB) from the store's first object's anchor to
/// its last, since a store's anchors are dense: each import numbers its objects on from the
/// last, so the span is at most the objects ever added. A store whose span is far wider than
/// its objects (damaged, or written by hand: one object at anchor 2^60) gets a hash set of the
/// anchors met instead, so that a stranger's store cannot size the import's memory.
struct AnchorSet {
    /// The anchor of bit 0.
    private let first: Int64
    /// The bits; empty when the set is `sparse`.
    private var words: [UInt64]
    private var sparse: Set<Int64>?
    /// The number of anchors in the set.
    private(set) var count = 0

    /// An empty set for the anchors `first` through `last` of a store of `objects` objects.
    init(first: Int64, last: Int64, objects: Int) {
        self.first = first
        let span = last >= first ? UInt64(bitPattern: last &- first) &+ 1 : 0
        // Bits for at most 64 anchors an object (8 bytes), or 128 KB whatever the store.
        if span <= max(UInt64(max(objects, 0)) &* 64, 1 << 20) {
            words = Array(repeating: 0, count: Int(span / 64) + 1)
        } else {
            words = []
            sparse = []
        }
    }

    func contains(_ anchor: Int64) -> Bool {
        if let sparse { return sparse.contains(anchor) }
        guard anchor >= first else { return false }
        let offset = UInt64(bitPattern: anchor &- first)
        guard offset / 64 < UInt64(words.count) else { return false }
        return words[Int(offset / 64)] & (1 << (offset % 64)) != 0
    }

    /// Adds an anchor of `first` through `last` (the bounds it was made with).
    mutating func insert(_ anchor: Int64) {
        if sparse != nil {
            if sparse!.insert(anchor).inserted { count += 1 }
            return
        }
        let offset = UInt64(bitPattern: anchor &- first)
        precondition(anchor >= first && offset / 64 < UInt64(words.count), "an anchor outside the set's bounds")
        let word = Int(offset / 64)
        let bit: UInt64 = 1 << (offset % 64)
        if words[word] & bit == 0 {
            words[word] |= bit
            count += 1
        }
    }
}
