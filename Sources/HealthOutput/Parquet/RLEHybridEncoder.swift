import HealthModel

/// Parquet's RLE/bit-packing hybrid (`Encodings.md`, "Run Length Encoding / Bit-Packing
/// Hybrid"): the encoding of definition levels and of dictionary indices.
///
/// A value repeated at least 8 times becomes a run (`count << 1` as ULEB128, then the value in
/// `ceil(bitWidth / 8)` little-endian bytes); anything else is bit-packed in groups of 8
/// (`groups << 1 | 1`, then the values least-significant bit first), the last group padded
/// with zeros (readers stop at the page's value count). Health data is run-heavy (a column of
/// one unit, one source for thousands of rows, no nulls), so runs carry most of it.
struct RLEHybridEncoder {
    let bitWidth: Int
    private var literals: [UInt32] = []

    init(bitWidth: Int) {
        precondition((1...32).contains(bitWidth))
        self.bitWidth = bitWidth
        literals.reserveCapacity(64)
    }

    /// The bit width that holds `0...maximum` (at least 1).
    static func bitWidth(forMaximum maximum: Int) -> Int {
        maximum <= 1 ? 1 : Int.bitWidth - (maximum).leadingZeroBitCount
    }

    /// Appends the encoding of `count` values, `value(i)` for `i` in `0..<count`, to `out`.
    mutating func encode(count: Int, into out: inout [UInt8], value: (Int) -> UInt32) {
        literals.removeAll(keepingCapacity: true)
        var i = 0
        while i < count {
            let v = value(i)
            var j = i + 1
            while j < count && value(j) == v { j += 1 }
            var run = j - i
            // A bit-packed run holds whole groups of 8: complete the open group first.
            let open = literals.count % 8
            if open != 0 {
                let take = min(run, 8 - open)
                for _ in 0..<take { literals.append(v) }
                run -= take
            }
            if run >= 8 {
                flushLiterals(into: &out)
                writeRun(v, count: run, into: &out)
            } else {
                for _ in 0..<run { literals.append(v) }
            }
            i = j
        }
        flushLiterals(into: &out)
    }

    private func writeRun(_ value: UInt32, count: Int, into out: inout [UInt8]) {
        out.appendULEB128(UInt64(count) << 1)
        var v = value
        for _ in 0..<((bitWidth + 7) / 8) {
            out.append(UInt8(truncatingIfNeeded: v))
            v >>= 8
        }
    }

    private mutating func flushLiterals(into out: inout [UInt8]) {
        guard !literals.isEmpty else { return }
        while literals.count % 8 != 0 { literals.append(0) }
        let groups = literals.count / 8
        out.appendULEB128(UInt64(groups) << 1 | 1)
        // Each group of 8 values is exactly `bitWidth` bytes.
        var accumulator: UInt64 = 0
        var bits = 0
        for v in literals {
            accumulator |= UInt64(v) << UInt64(bits)
            bits += bitWidth
            while bits >= 8 {
                out.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator >>= 8
                bits -= 8
            }
        }
        literals.removeAll(keepingCapacity: true)
    }
}
