/// How a table column is typed in Parquet (`LogicalTypes.md`), chosen by the `TableRowBuilder`
/// call that fills it, so a column's type never depends on the data
/// (`healthport-formats(5)`, PARQUET).
enum ParquetColumnType: Sendable, Equatable {
    /// Text: `BYTE_ARRAY` annotated `STRING`, dictionary-encoded.
    case string
    /// A JSON object as text (metadata, extensions): `BYTE_ARRAY` annotated `JSON`.
    case json
    /// A number: `DOUBLE`.
    case double
    /// An integer: `INT64` annotated `INTEGER(64, signed)`.
    case int64
    /// An instant: `INT64` annotated `TIMESTAMP(isAdjustedToUTC = true, MICROS)`.
    case timestamp
    /// A wall-clock time without a zone (a sample's local time): `INT64` annotated
    /// `TIMESTAMP(isAdjustedToUTC = false, MICROS)`, microseconds of the clock read as UTC.
    case localTimestamp
    /// The UTC offset an instant was printed with, in seconds: `INT32` annotated
    /// `INTEGER(32, signed)`.
    case utcOffset
    /// A uuid: `FIXED_LEN_BYTE_ARRAY(16)` annotated `UUID`, big-endian as RFC 4122 writes it.
    case uuid
    /// A calendar date (a person's local day): `INT32` annotated `DATE`, days since 1970-01-01.
    case day
    /// A Boolean: `BOOLEAN`, bit-packed in pages (kept a byte a value until a page is written).
    case boolean

    /// `Type` in `parquet.thrift`.
    var physicalType: Int32 {
        switch self {
        case .string, .json: return 6  // BYTE_ARRAY
        case .double: return 5  // DOUBLE
        case .int64, .timestamp, .localTimestamp: return 2  // INT64
        case .utcOffset, .day: return 1  // INT32
        case .uuid: return 7  // FIXED_LEN_BYTE_ARRAY
        case .boolean: return 0  // BOOLEAN
        }
    }

    /// `ConvertedType`, for readers older than logical types; `nil` where there is none (UUID,
    /// DOUBLE).
    var convertedType: Int32? {
        switch self {
        case .string: return 0  // UTF8
        case .json: return 19  // JSON
        case .timestamp: return 10  // TIMESTAMP_MICROS
        case .int64: return 18  // INT_64
        case .utcOffset: return 17  // INT_32
        case .day: return 6  // DATE
        // The converted TIMESTAMP_MICROS means an instant: a local time has none.
        case .double, .uuid, .boolean, .localTimestamp: return nil
        }
    }

    /// Writes the `LogicalType` union member (`SchemaElement.logicalType`, field 10); `false`
    /// when the column has none.
    func writeLogicalType(_ thrift: inout ThriftCompactWriter) -> Bool {
        switch self {
        case .string:
            thrift.field(10, emptyStructMember: 1)  // STRING
        case .json:
            thrift.field(10, emptyStructMember: 12)  // JSON
        case .uuid:
            thrift.field(10, emptyStructMember: 14)  // UUID
        case .timestamp, .localTimestamp:
            let adjusted = self == .timestamp
            thrift.field(10) { logical in
                logical.field(8) { timestamp in  // TIMESTAMP
                    timestamp.field(1, bool: adjusted)  // isAdjustedToUTC
                    timestamp.field(2, emptyStructMember: 2)  // unit: MICROS
                }
            }
        case .int64, .utcOffset:
            thrift.field(10) { logical in
                logical.field(10) { integer in  // INTEGER
                    integer.field(1, i8: self == .int64 ? 64 : 32)  // bitWidth
                    integer.field(2, bool: true)  // isSigned
                }
            }
        case .day:
            thrift.field(10, emptyStructMember: 6)  // DATE
        case .double, .boolean:
            return false
        }
        return true
    }

    /// Bytes of one value in the PLAIN encoding (`Encodings.md`, "Plain"); `nil` for
    /// variable-length values (a 4-byte length, then the bytes).
    var plainWidth: Int? {
        switch self {
        case .string, .json: return nil
        case .double, .int64, .timestamp, .localTimestamp: return 8
        case .utcOffset, .day: return 4
        case .uuid: return 16
        // One byte a value while buffered; bit-packed when a page is written (`packedBits`).
        case .boolean: return 1
        }
    }
}
