import Foundation
import Testing
import HealthModel
@testable import HealthOutput

/// The encodings Parquet's writer hand-writes, checked against the specifications' own rules:
/// the RLE/bit-packing hybrid decoded as `Encodings.md` describes it, Thrift's compact
/// protocol against bytes worked out from `thrift-compact-protocol.md`. (Whole files are read
/// back by pyarrow, DuckDB and Spark in `Scripts/check-parquet.sh` and `check-spark.sh`.)
@Suite struct ParquetEncodingTests {
    /// `Encodings.md`, "Run Length Encoding / Bit-Packing Hybrid": a ULEB128 header whose low
    /// bit says bit-packed (groups of 8 values, LSB first) or run (a value in ceil(width/8)
    /// bytes).
    static func decodeHybrid(_ bytes: [UInt8], bitWidth: Int, count: Int) -> [UInt32] {
        var values: [UInt32] = []
        var i = 0
        func varint() -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let b = bytes[i]
                i += 1
                result |= UInt64(b & 0x7F) << shift
                if b & 0x80 == 0 { return result }
                shift += 7
            }
        }
        while values.count < count && i < bytes.count {
            let header = varint()
            if header & 1 == 1 {
                let groups = Int(header >> 1)
                var bitPosition = 0
                let start = i
                for _ in 0..<(groups * 8) {
                    var v: UInt32 = 0
                    for bit in 0..<bitWidth {
                        let position = bitPosition + bit
                        if bytes[start + position / 8] & (1 << (position % 8)) != 0 { v |= 1 << bit }
                    }
                    bitPosition += bitWidth
                    values.append(v)
                }
                i = start + groups * bitWidth
            } else {
                let run = Int(header >> 1)
                var v: UInt32 = 0
                for byte in 0..<((bitWidth + 7) / 8) {
                    v |= UInt32(bytes[i]) << (8 * byte)
                    i += 1
                }
                values.append(contentsOf: repeatElement(v, count: run))
            }
        }
        return Array(values.prefix(count))
    }

    @Test(arguments: [1, 2, 3, 7, 8, 13, 20])
    func theHybridEncodingDecodesToItsValues(bitWidth: Int) {
        var generator = SystemRandomNumberGenerator()
        let maximum = UInt32((1 << UInt64(bitWidth)) - 1)
        for length in [0, 1, 7, 8, 9, 64, 1000] {
            // Runs of random lengths (as health data has), and noise between them.
            var values: [UInt32] = []
            while values.count < length {
                let value = UInt32.random(in: 0...maximum, using: &generator)
                let run = Bool.random(using: &generator) ? Int.random(in: 1...40, using: &generator) : 1
                values.append(contentsOf: repeatElement(value, count: min(run, length - values.count)))
            }
            var encoder = RLEHybridEncoder(bitWidth: bitWidth)
            var bytes: [UInt8] = []
            encoder.encode(count: values.count, into: &bytes) { values[$0] }
            #expect(Self.decodeHybrid(bytes, bitWidth: bitWidth, count: values.count) == values, "width \(bitWidth), length \(length)")
        }
    }

    @Test func aLongRunIsOneRunHeader() {
        var encoder = RLEHybridEncoder(bitWidth: 1)
        var bytes: [UInt8] = []
        encoder.encode(count: 1000, into: &bytes) { _ in 1 }
        // 1000 << 1 as ULEB128 (0xD0 0x0F), then the value in one byte.
        #expect(bytes == [0xD0, 0x0F, 0x01])
    }

    @Test func bitWidthsHoldTheirMaximum() {
        #expect(RLEHybridEncoder.bitWidth(forMaximum: 0) == 1)
        #expect(RLEHybridEncoder.bitWidth(forMaximum: 1) == 1)
        #expect(RLEHybridEncoder.bitWidth(forMaximum: 2) == 2)
        #expect(RLEHybridEncoder.bitWidth(forMaximum: 255) == 8)
        #expect(RLEHybridEncoder.bitWidth(forMaximum: 256) == 9)
    }

    @Test func thriftCompactFieldsAsTheSpecificationWritesThem() {
        var thrift = ThriftCompactWriter()
        thrift.structure { s in
            s.field(1, i32: -1)  // delta 1, type 5; zigzag(-1) = 1
            s.field(3, i64: 300)  // delta 2, type 6; zigzag(300) = 600 = 0xD8 0x04
            s.field(20, bool: true)  // delta 17 > 15: type byte 1, then zigzag(20) = 40
            s.field(21, string: "ab")  // delta 1, type 8, length 2
            s.field(22, list: .i32, count: 2) { $0.element(i32: Int32($1)) }  // size 2, type 5
            s.field(23) { $0.field(1) { _ in } }  // a struct holding an empty struct
        }
        #expect(thrift.bytes == [
            0x15, 0x01,
            0x26, 0xD8, 0x04,
            0x01, 0x28,
            0x18, 0x02, 0x61, 0x62,
            0x19, 0x25, 0x00, 0x02,
            0x1C, 0x1C, 0x00, 0x00,
            0x00,
        ])
    }

    @Test func aColumnKeepsItsStatistics() {
        let column = ParquetColumnBuffer(name: "quantity_value", type: .double)
        for value in [3.5, -2.0, 0.0, 10.25] { column.append(double: value) }
        column.appendNull()
        #expect(column.minimum == .double(-2.0) && column.maximum == .double(10.25))
        #expect(column.nullCount == 1 && column.rowCount == 5 && column.fixedValues.count == 32)
        let strings = ParquetColumnBuffer(name: "unit", type: .string)
        for unit in ["kg", "kg", "lb", "kg", "count/min"] { strings.append(string: unit) }
        #expect(strings.dictionaryEntries == ["kg", "lb", "count/min"])
        #expect(strings.indices == [0, 0, 1, 0, 2])
        #expect(strings.stringBounds()! == ("count/min", "lb"))
    }
}
