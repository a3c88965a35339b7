/// Columns as libxml2 counts them, for the positions the scanner reports.
///
/// libxml2 counts one column per character of the document it sees, and it sees the bytes the
/// pre-filter repaired (`ByteRepair`): an ill-formed byte is one `?`, an encoded surrogate one
/// U+FFFD. So a column is not a count of UTF-8 lead bytes: a lone continuation byte is a
/// character here. Only asked for when a handler wants a position (an error or a warning), so
/// this walk stays off the per-record path.
enum ColumnCounter {
    /// The characters libxml2 sees in `p[start..<end]`.
    static func characters(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var i = start
        var count = 0
        while i < end {
            // Eight ASCII bytes at a time: eight characters.
            if i + 8 <= end, UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                count += 8
                continue
            }
            if p[i] < 0x80 {
                i += 1
            } else {
                switch ByteRepair.judge(p, i, end) {
                case .character(let length): i += length
                case .replacementCharacter: i += 3
                case .questionMark, .incomplete: i += 1
                }
            }
            count += 1
        }
        return count
    }
}
