extension Array where Element == UInt8 {
    /// Appends `value` as ULEB128: seven bits a byte, least significant first, the high bit set
    /// on every byte but the last.
    ///
    /// The varint of Parquet's RLE/bit-packed hybrid run headers, of Thrift's compact protocol
    /// (its lengths and zigzagged integers) and of healthport's anchors: one encoder for the three,
    /// which must agree byte for byte with their readers.
    package mutating func appendULEB128(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        append(UInt8(v))
    }
}
