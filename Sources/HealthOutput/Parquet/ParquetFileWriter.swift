import HealthJSON

/// One Parquet file, written front to back (the format's README, "File format"): the magic
/// `PAR1`, row groups as they are flushed, then the footer (`FileMetaData` in Thrift's compact
/// protocol), its length and the magic again.
///
/// The schema is flat: a root group of `OPTIONAL` columns, one per table column, each typed by
/// `ParquetColumnType`. Row groups are flushed by the table writer (`ParquetTableBuffer`); only
/// their metadata stays in memory until the footer.
final class ParquetFileWriter {
    static let magic: [UInt8] = Array("PAR1".utf8)
    /// `created_by`, in the form parquet-mr parses ("<application> version <version>"): a reader
    /// that cannot parse it distrusts string statistics. The version is the tables' schema
    /// version (`HealthOutputFormat.version`), so files do not change with the release.
    static let createdBy = "healthport version \(HealthOutputFormat.version)"

    let out: OutputBuffer
    private let chunkWriter: ParquetColumnChunkWriter
    private var columns: [(name: String, type: ParquetColumnType)] = []
    private var rowGroups: [(rows: Int64, chunks: [ParquetColumnChunkMetadata])] = []
    private(set) var rowCount: Int64 = 0
    private var position: Int64 = 0

    init(out: OutputBuffer, compressor: ParquetPageCompressor) {
        self.out = out
        self.chunkWriter = ParquetColumnChunkWriter(compressor: compressor)
        out.append(contentsOf: Self.magic)
        position = Int64(Self.magic.count)
    }

    /// Writes the buffered rows of `columns` as one row group and empties them.
    func writeRowGroup(_ buffers: [ParquetColumnBuffer]) throws {
        guard let rows = buffers.first?.rowCount, rows > 0 else { return }
        if columns.isEmpty { columns = buffers.map { ($0.name, $0.type) } }
        var chunks: [ParquetColumnChunkMetadata] = []
        chunks.reserveCapacity(buffers.count)
        for buffer in buffers {
            let chunk = try chunkWriter.write(buffer, to: out, at: position)
            position += chunk.compressedSize
            chunks.append(chunk)
            buffer.reset()
        }
        rowGroups.append((Int64(rows), chunks))
        rowCount += Int64(rows)
    }

    /// Declares the file's columns when no row group did (a table with no rows).
    func declareColumns(_ buffers: [ParquetColumnBuffer]) {
        if columns.isEmpty { columns = buffers.map { ($0.name, $0.type) } }
    }

    /// Writes the footer; the caller then commits the file.
    func finish() throws {
        var footer = ThriftCompactWriter()
        footer.structure { file in
            file.field(1, i32: 1)  // version
            file.field(2, list: .structure, count: columns.count + 1) { list, index in  // schema
                list.structure { element in
                    if index == 0 {
                        element.field(4, string: "schema")  // name
                        element.field(5, i32: Int32(columns.count))  // num_children
                        return
                    }
                    let column = columns[index - 1]
                    element.field(1, i32: column.type.physicalType)  // type
                    if column.type == .uuid { element.field(2, i32: 16) }  // type_length
                    element.field(3, i32: 1)  // repetition_type: OPTIONAL
                    element.field(4, string: column.name)  // name
                    if let converted = column.type.convertedType { element.field(6, i32: converted) }  // converted_type
                    _ = column.type.writeLogicalType(&element)  // logicalType
                }
            }
            file.field(3, i64: rowCount)  // num_rows
            file.field(4, list: .structure, count: rowGroups.count) { list, index in  // row_groups
                let group = rowGroups[index]
                list.structure { rowGroup in
                    rowGroup.field(1, list: .structure, count: group.chunks.count) { list, index in  // columns
                        list.structure { Self.writeColumnChunk(group.chunks[index], to: &$0) }
                    }
                    rowGroup.field(2, i64: group.chunks.reduce(0) { $0 + $1.uncompressedSize })  // total_byte_size
                    rowGroup.field(3, i64: group.rows)  // num_rows
                    rowGroup.field(5, i64: group.chunks.first?.startOffset ?? 0)  // file_offset
                    rowGroup.field(6, i64: group.chunks.reduce(0) { $0 + $1.compressedSize })  // total_compressed_size
                    rowGroup.field(7, i16: Int16(truncatingIfNeeded: index))  // ordinal
                }
            }
            file.field(6, string: Self.createdBy)  // created_by
            // column_orders: TYPE_ORDER for every column, so readers use min_value/max_value.
            file.field(7, list: .structure, count: columns.count) { list, _ in
                list.structure { order in order.field(1) { _ in } }  // ColumnOrder.TYPE_ORDER
            }
        }
        out.append(contentsOf: footer.bytes)
        withUnsafeBytes(of: UInt32(footer.bytes.count).littleEndian) { out.append($0) }
        out.append(contentsOf: Self.magic)
        try out.endRecord()
    }

    private static func writeColumnChunk(_ chunk: ParquetColumnChunkMetadata, to column: inout ThriftCompactWriter) {
        column.field(2, i64: 0)  // file_offset: deprecated, 0 when no ColumnMetaData precedes the footer
        column.field(3) { meta in  // meta_data
            meta.field(1, i32: chunk.type.physicalType)  // type
            meta.field(2, list: .i32, count: chunk.encodings.count) { $0.element(i32: chunk.encodings[$1]) }  // encodings
            meta.field(3, list: .binary, count: 1) { list, _ in list.element(string: chunk.name) }  // path_in_schema
            meta.field(4, i32: chunk.codec)  // codec
            meta.field(5, i64: chunk.rowCount)  // num_values
            meta.field(6, i64: chunk.uncompressedSize)  // total_uncompressed_size
            meta.field(7, i64: chunk.compressedSize)  // total_compressed_size
            meta.field(9, i64: chunk.dataPageOffset)  // data_page_offset
            if let dictionary = chunk.dictionaryPageOffset { meta.field(11, i64: dictionary) }  // dictionary_page_offset
            meta.field(12) { statistics in  // statistics
                statistics.field(3, i64: chunk.nullCount)  // null_count
                if let max = chunk.maxValue { statistics.field(5, binary: max) }  // max_value
                if let min = chunk.minValue { statistics.field(6, binary: min) }  // min_value
            }
        }
    }
}
