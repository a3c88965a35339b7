/// Levenshtein distance between two words: how many insertions, deletions and substitutions
/// turn one into the other. Suggestions for a misspelt type name (`ObjectQuery`) or option
/// (the command line's) are the known words closest by it. Hand-written: a dozen lines, on
/// words of a few dozen characters, where a package would be a dependency for one function.
package enum EditDistance {
    package static func between(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        var current = previous
        for (i, x) in a.enumerated() {
            current[0] = i + 1
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The distance when it is at most `limit`, else `nil`. Words whose lengths differ by more
    /// than `limit` are told apart without the table: a name pasted from a stranger's policy
    /// can be kilobytes long, and the table costs its length times each known word's.
    package static func within(_ limit: Int, _ a: [Character], _ b: [Character]) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        let distance = between(a, b)
        return distance <= limit ? distance : nil
    }
}
