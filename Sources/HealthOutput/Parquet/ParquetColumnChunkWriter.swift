import HealthJSON

/// Writes one column chunk (`parquet.thrift`, `ColumnChunk`; the format's README, "File
/// format"): a dictionary page for dictionary-encoded strings, then data pages (version 1)
/// holding the definition levels (RLE) and the values, each page compressed on its own, each
/// preceded by its `PageHeader`.
///
/// Strings are `RLE_DICTIONARY` (`Encodings.md`) unless the chunk's distinct values pass 1 MiB
/// (Arrow's default dictionary page limit), then `PLAIN`, as readers expect of a dictionary
/// that stopped paying; every other type is `PLAIN`.
struct ParquetColumnChunkWriter {
    /// A page holds at most this many rows, and is cut earlier once its values pass
    /// `pageBytes`: pages are the unit a reader decompresses.
    static let pageRows = 65_536
    static let pageBytes = 1 << 20
    static let dictionaryLimit = 1 << 20
    /// Strings longer than this get no min/max statistics (a JSON cell would make the footer
    /// as large as the data; `Statistics.md` allows leaving them out).
    static let statisticsStringLimit = 256

    // Encoding, PageType (`parquet.thrift`).
    static let plain: Int32 = 0
    static let rle: Int32 = 3
    static let rleDictionary: Int32 = 8
    static let dataPage: Int32 = 0
    static let dictionaryPage: Int32 = 2

    let compressor: ParquetPageCompressor
    /// For uuid columns: 16 random bytes a value do not compress (zstd made the sample's
    /// HeartRate uuids 10 bytes larger, and spent time trying), and the codec is a column
    /// chunk's own choice.
    private let uncompressed = ParquetPageCompressor(.none)

    init(compressor: ParquetPageCompressor) {
        self.compressor = compressor
    }

    /// Writes `column`'s chunk to `out`, whose first byte lands at file offset `offset`.
    func write(_ column: ParquetColumnBuffer, to out: OutputBuffer, at offset: Int64) throws -> ParquetColumnChunkMetadata {
        let compressor = column.type == .uuid ? uncompressed : self.compressor
        var metadata = ParquetColumnChunkMetadata(
            name: column.name, type: column.type, codec: compressor.compression.codec, rowCount: Int64(column.rowCount),
            nullCount: Int64(column.nullCount))
        var position = offset
        let isString = column.plainWidthOrNil == nil
        let usesDictionary = isString && column.valueCount > 0 && column.dictionaryBytes <= Self.dictionaryLimit
        let entryBytes: [[UInt8]] = isString ? column.dictionaryEntries.map { Array($0.utf8) } : []

        if usesDictionary {
            var body: [UInt8] = []
            body.reserveCapacity(column.dictionaryBytes + 4 * entryBytes.count)
            for entry in entryBytes { Self.appendPlain(entry, to: &body) }
            metadata.dictionaryPageOffset = position
            position += try writePage(body, into: out, compressor: compressor, metadata: &metadata) { header in
                header.field(1, i32: Self.dictionaryPage)
                return { header in
                    header.field(7) { dictionary in  // dictionary_page_header
                        dictionary.field(1, i32: Int32(entryBytes.count))  // num_values
                        dictionary.field(2, i32: Self.plain)  // encoding
                    }
                }
            }
            metadata.encodings = [Self.plain, Self.rle, Self.rleDictionary]
        } else {
            metadata.encodings = [Self.plain, Self.rle]
        }
        metadata.dataPageOffset = position

        let levels = column.definitionLevels
        let width = column.type.plainWidth
        let indexWidth = RLEHybridEncoder.bitWidth(forMaximum: max(0, entryBytes.count - 1))
        var levelEncoder = RLEHybridEncoder(bitWidth: 1)
        var indexEncoder = RLEHybridEncoder(bitWidth: indexWidth)
        var row = 0
        var value = 0
        repeat {
            // The page's rows: up to pageRows, fewer once its values pass pageBytes.
            let firstRow = row
            let firstValue = value
            var bytes = 0
            while row < levels.count && row - firstRow < Self.pageRows && bytes < Self.pageBytes {
                if levels[row] != 0 {
                    if let width {
                        bytes += width
                    } else if usesDictionary {
                        bytes += 2
                    } else {
                        bytes += 4 + entryBytes[Int(column.indices[value])].count
                    }
                    value += 1
                }
                row += 1
            }
            var body: [UInt8] = [0, 0, 0, 0]
            levelEncoder.encode(count: row - firstRow, into: &body) { UInt32(levels[firstRow + $0]) }
            let levelLength = UInt32(body.count - 4)
            withUnsafeBytes(of: levelLength.littleEndian) { body.replaceSubrange(0..<4, with: $0) }
            if column.type == .boolean {
                Self.appendPackedBits(column.fixedValues[firstValue..<value], to: &body)
            } else if let width {
                body.append(contentsOf: column.fixedValues[(firstValue * width)..<(value * width)])
            } else if usesDictionary {
                body.append(UInt8(indexWidth))
                let indices = column.indices
                indexEncoder.encode(count: value - firstValue, into: &body) { indices[firstValue + $0] }
            } else {
                for i in firstValue..<value { Self.appendPlain(entryBytes[Int(column.indices[i])], to: &body) }
            }
            let rows = Int32(row - firstRow)
            position += try writePage(body, into: out, compressor: compressor, metadata: &metadata) { header in
                header.field(1, i32: Self.dataPage)
                return { header in
                    header.field(5) { data in  // data_page_header
                        data.field(1, i32: rows)  // num_values (nulls included)
                        data.field(2, i32: usesDictionary ? Self.rleDictionary : Self.plain)
                        data.field(3, i32: Self.rle)  // definition levels
                        data.field(4, i32: Self.rle)  // repetition levels (none: max level 0)
                    }
                }
            }
        } while row < levels.count

        metadata.minValue = nil
        metadata.maxValue = nil
        if isString {
            if let (low, high) = column.stringBounds(), low.utf8.count <= Self.statisticsStringLimit,
                high.utf8.count <= Self.statisticsStringLimit
            {
                metadata.minValue = Array(low.utf8)
                metadata.maxValue = Array(high.utf8)
            }
        } else if var low = column.minimum, var high = column.maximum {
            // Statistics.md: a zero minimum is written -0.0 and a zero maximum +0.0, so a reader
            // that compares with either sign of zero skips nothing it should read.
            if case .double(let v) = low, v == 0 { low = .double(-0.0) }
            if case .double(let v) = high, v == 0 { high = .double(0.0) }
            metadata.minValue = low.plainBytes
            metadata.maxValue = high.plainBytes
        }
        return metadata
    }

    /// Compresses `body`, writes its page header (the first field from `head`, the
    /// page-specific header from what `head` returns) and the page; returns the bytes written.
    private func writePage(
        _ body: [UInt8], into out: OutputBuffer, compressor: ParquetPageCompressor, metadata: inout ParquetColumnChunkMetadata,
        head: (inout ThriftCompactWriter) -> ((inout ThriftCompactWriter) -> Void)
    ) throws -> Int64 {
        let compressed = try compressor.compress(body)
        var header = ThriftCompactWriter()
        header.structure { page in
            let rest = head(&page)
            page.field(2, i32: Int32(body.count))  // uncompressed_page_size
            page.field(3, i32: Int32(compressed.count))  // compressed_page_size
            rest(&page)
        }
        out.append(contentsOf: header.bytes)
        // A large page goes straight to the file rather than through (and growing) the buffer.
        try compressed.withUnsafeBytes { try out.appendRecords($0) }
        metadata.uncompressedSize += Int64(header.bytes.count + body.count)
        metadata.compressedSize += Int64(header.bytes.count + compressed.count)
        return Int64(header.bytes.count + compressed.count)
    }

    /// BOOLEANs in the PLAIN encoding (`Encodings.md`): one bit a value, the first value in the
    /// least significant bit, padded to a whole byte.
    static func appendPackedBits(_ values: ArraySlice<UInt8>, to out: inout [UInt8]) {
        var byte: UInt8 = 0
        var bit = 0
        for value in values {
            if value != 0 { byte |= 1 << bit }
            bit += 1
            if bit == 8 {
                out.append(byte)
                byte = 0
                bit = 0
            }
        }
        if bit > 0 { out.append(byte) }
    }

    /// A BYTE_ARRAY in the PLAIN encoding: its length (4 bytes, little-endian), then its bytes.
    private static func appendPlain(_ bytes: [UInt8], to out: inout [UInt8]) {
        withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { out.append(contentsOf: $0) }
        out.append(contentsOf: bytes)
    }
}

extension ParquetColumnBuffer {
    fileprivate var plainWidthOrNil: Int? { type.plainWidth }
}

/// What the footer says of one column chunk (`ColumnMetaData`).
struct ParquetColumnChunkMetadata {
    var name: String
    var type: ParquetColumnType
    var codec: Int32
    var rowCount: Int64
    var nullCount: Int64
    var encodings: [Int32] = []
    var uncompressedSize: Int64 = 0
    var compressedSize: Int64 = 0
    var dataPageOffset: Int64 = 0
    var dictionaryPageOffset: Int64? = nil
    var minValue: [UInt8]? = nil
    var maxValue: [UInt8]? = nil

    /// Where the chunk starts: its dictionary page, else its first data page.
    var startOffset: Int64 { dictionaryPageOffset ?? dataPageOffset }
}
