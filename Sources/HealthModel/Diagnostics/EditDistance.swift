/// Levenshtein distance between two words: how many insertions, deletions and substitutions
/// turn one into the other. Suggestions for a misspelt type name (`ObjectQuery`) or option
/// (the command line's) are the known words closest by it. Hand-written: a dozen lines, on
/// words of a few dozen characters, where a package would be a dependency for one function.
package enum EditDistance {
    package static func between(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
