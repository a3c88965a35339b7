import HealthModel

/// Thrift's compact protocol, the encoding of every Parquet header and of the file footer
/// (`parquet.thrift`; Thrift's `doc/specs/thrift-compact-protocol.md`): only what writing needs.
///
/// Hand-written because no Thrift library is among the available packages, and Parquet uses a
/// small, frozen subset: structs, lists, i32/i64 (zigzag varints), binary, bool.
struct ThriftCompactWriter {
    /// The compact protocol's type nibbles.
    enum FieldType: UInt8 {
        case boolTrue = 1, boolFalse = 2, byte = 3, i16 = 4, i32 = 5, i64 = 6, double = 7, binary = 8, list = 9
        case set = 10, map = 11, structure = 12
    }

    private(set) var bytes: [UInt8] = []
    /// The last field id written in each open struct: ids are written as deltas from it.
    private var lastFieldIDs: [Int16] = [0]

    init() {
        bytes.reserveCapacity(256)
    }

    // MARK: Fields

    mutating func field(_ id: Int16, i32 value: Int32) {
        fieldHeader(id, .i32)
        varint(zigzag(Int64(value)))
    }

    mutating func field(_ id: Int16, i64 value: Int64) {
        fieldHeader(id, .i64)
        varint(zigzag(value))
    }

    mutating func field(_ id: Int16, i16 value: Int16) {
        fieldHeader(id, .i16)
        varint(zigzag(Int64(value)))
    }

    /// An i8 field (`IntType.bitWidth`): one byte, not a varint.
    mutating func field(_ id: Int16, i8 value: Int8) {
        fieldHeader(id, .byte)
        bytes.append(UInt8(bitPattern: value))
    }

    mutating func field(_ id: Int16, bool value: Bool) {
        // A bool field's value is its type nibble.
        fieldHeader(id, value ? .boolTrue : .boolFalse)
    }

    mutating func field(_ id: Int16, binary value: some Collection<UInt8>) {
        fieldHeader(id, .binary)
        binary(value)
    }

    mutating func field(_ id: Int16, string value: String) {
        field(id, binary: value.utf8)
    }

    /// A struct field: `body` writes its fields; the struct's stop byte follows.
    mutating func field(_ id: Int16, struct body: (inout ThriftCompactWriter) -> Void) {
        fieldHeader(id, .structure)
        structure(body)
    }

    /// A union (a struct with one field set) whose chosen member is an empty struct, as
    /// Parquet's `LogicalType.STRING` or `TimeUnit.MICROS`.
    mutating func field(_ id: Int16, emptyStructMember member: Int16) {
        field(id) { $0.field(member) { _ in } }
    }

    /// A list field of `count` elements of `type`, each written by `element`.
    mutating func field(_ id: Int16, list type: FieldType, count: Int, element: (inout ThriftCompactWriter, Int) -> Void) {
        fieldHeader(id, .list)
        if count < 15 {
            bytes.append(UInt8(count) << 4 | type.rawValue)
        } else {
            bytes.append(0xF0 | type.rawValue)
            varint(UInt64(count))
        }
        for index in 0..<count { element(&self, index) }
    }

    // MARK: List elements and values

    /// A struct value (a list element, or the top-level message): its fields, then stop.
    mutating func structure(_ body: (inout ThriftCompactWriter) -> Void) {
        lastFieldIDs.append(0)
        body(&self)
        bytes.append(0)  // stop
        lastFieldIDs.removeLast()
    }

    mutating func element(i32 value: Int32) {
        varint(zigzag(Int64(value)))
    }

    mutating func element(i64 value: Int64) {
        varint(zigzag(value))
    }

    mutating func element(string value: String) {
        binary(value.utf8)
    }

    mutating func binary(_ value: some Collection<UInt8>) {
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    // MARK: Encoding

    private mutating func fieldHeader(_ id: Int16, _ type: FieldType) {
        let last = lastFieldIDs[lastFieldIDs.count - 1]
        let delta = Int(id) - Int(last)
        if delta > 0 && delta <= 15 {
            bytes.append(UInt8(delta) << 4 | type.rawValue)
        } else {
            bytes.append(type.rawValue)
            varint(zigzag(Int64(id)))
        }
        lastFieldIDs[lastFieldIDs.count - 1] = id
    }

    private func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    /// ULEB128.
    mutating func varint(_ value: UInt64) { bytes.appendULEB128(value) }
}
