import HealthModel

/// One column's values for the row group being collected: a definition level per row (1 a
/// value, 0 null: every column is `OPTIONAL`), the values, and their statistics.
///
/// Fixed-width values are kept already in the PLAIN encoding (little-endian; uuids
/// big-endian), so writing a page is a copy. Strings are kept as a dictionary and indices: the
/// columns that hold most of a table's bytes (types, units, sources, devices, metadata) repeat
/// a handful of values over thousands of rows, and Apple writes each type as one run, so the
/// last value is compared first (the parser's interned strings make that an identity check).
///
/// Used by one thread at a time, as every writer is: its stored properties opt out of dynamic
/// exclusivity checks (`@exclusivity(unchecked)`, as `OutputBuffer`'s do), which took 5 % of a
/// Parquet conversion's samples in `perf` (`swift_beginAccess`, `AccessSet::insert`).
final class ParquetColumnBuffer {
    let name: String
    let type: ParquetColumnType

    @exclusivity(unchecked) private(set) var definitionLevels: [UInt8] = []
    @exclusivity(unchecked) private(set) var nullCount = 0
    /// PLAIN bytes of the non-null fixed-width values.
    @exclusivity(unchecked) private(set) var fixedValues: [UInt8] = []

    @exclusivity(unchecked) private var dictionary: [String: UInt32] = [:]
    /// The distinct strings, in order of first appearance: the dictionary page.
    @exclusivity(unchecked) private(set) var dictionaryEntries: [String] = []
    @exclusivity(unchecked) private(set) var dictionaryBytes = 0
    /// One dictionary index per non-null string.
    @exclusivity(unchecked) private(set) var indices: [UInt32] = []
    @exclusivity(unchecked) private var lastString: String? = nil
    @exclusivity(unchecked) private var lastIndex: UInt32 = 0

    @exclusivity(unchecked) private(set) var minimum: ParquetStatisticValue? = nil
    @exclusivity(unchecked) private(set) var maximum: ParquetStatisticValue? = nil

    init(name: String, type: ParquetColumnType) {
        self.name = name
        self.type = type
    }

    var rowCount: Int { definitionLevels.count }
    var valueCount: Int { rowCount - nullCount }

    /// What the buffered values hold in memory: the arrays' capacities (what was allocated,
    /// not what is used), the strings and about 48 bytes a dictionary entry for its hash table
    /// slot and string header. The row group budget counts this.
    var memoryBytes: Int {
        definitionLevels.capacity + fixedValues.capacity + indices.capacity * 4 + dictionaryBytes + dictionaryEntries.capacity * 48
    }

    // MARK: Appending

    @inline(__always)
    func appendNull() {
        definitionLevels.append(0)
        nullCount += 1
    }

    func append(double value: Double) {
        definitionLevels.append(1)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { fixedValues.append(contentsOf: $0) }
        guard !value.isNaN else { return }
        if case .double(let low)? = minimum, low <= value {} else { minimum = .double(value) }
        if case .double(let high)? = maximum, high >= value {} else { maximum = .double(value) }
    }

    func append(int64 value: Int64) {
        definitionLevels.append(1)
        withUnsafeBytes(of: value.littleEndian) { fixedValues.append(contentsOf: $0) }
        if case .int64(let low)? = minimum, low <= value {} else { minimum = .int64(value) }
        if case .int64(let high)? = maximum, high >= value {} else { maximum = .int64(value) }
    }

    func append(int32 value: Int32) {
        definitionLevels.append(1)
        withUnsafeBytes(of: value.littleEndian) { fixedValues.append(contentsOf: $0) }
        if case .int32(let low)? = minimum, low <= value {} else { minimum = .int32(value) }
        if case .int32(let high)? = maximum, high >= value {} else { maximum = .int32(value) }
    }

    func append(bool value: Bool) {
        definitionLevels.append(1)
        fixedValues.append(value ? 1 : 0)
        if case .bool(let low)? = minimum {
            if low && !value { minimum = .bool(false) }
        } else {
            minimum = .bool(value)
        }
        if case .bool(let high)? = maximum {
            if !high && value { maximum = .bool(true) }
        } else {
            maximum = .bool(value)
        }
    }

    func append(uuid value: ObjectUUID) {
        definitionLevels.append(1)
        withUnsafeBytes(of: value.high.bigEndian) { fixedValues.append(contentsOf: $0) }
        withUnsafeBytes(of: value.low.bigEndian) { fixedValues.append(contentsOf: $0) }
        // ObjectUUID orders as its big-endian bytes do: Parquet's unsigned byte order.
        if case .uuid(let low)? = minimum, low <= value {} else { minimum = .uuid(value) }
        if case .uuid(let high)? = maximum, high >= value {} else { maximum = .uuid(value) }
    }

    func append(string value: String) {
        definitionLevels.append(1)
        if let last = lastString, last == value {
            indices.append(lastIndex)
            return
        }
        let index: UInt32
        if let known = dictionary[value] {
            index = known
        } else {
            index = UInt32(dictionaryEntries.count)
            dictionary[value] = index
            dictionaryEntries.append(value)
            dictionaryBytes += value.utf8.count
        }
        indices.append(index)
        lastString = value
        lastIndex = index
    }

    /// Empties the buffer for the next row group, giving its memory back.
    func reset() {
        definitionLevels = []
        nullCount = 0
        fixedValues = []
        dictionary = [:]
        dictionaryEntries = []
        dictionaryBytes = 0
        indices = []
        lastString = nil
        minimum = nil
        maximum = nil
    }

    /// Byte-wise minimum and maximum of the strings (Parquet's order for `STRING` and `JSON`:
    /// unsigned lexicographic on the UTF-8 bytes), from the dictionary: every entry is used.
    func stringBounds() -> (minimum: String, maximum: String)? {
        guard var low = dictionaryEntries.first else { return nil }
        var high = low
        for entry in dictionaryEntries.dropFirst() {
            if entry.utf8.lexicographicallyPrecedes(low.utf8) { low = entry }
            if high.utf8.lexicographicallyPrecedes(entry.utf8) { high = entry }
        }
        return (low, high)
    }
}

/// A column chunk's minimum or maximum, typed.
enum ParquetStatisticValue: Equatable {
    case double(Double)
    case int64(Int64)
    case int32(Int32)
    case uuid(ObjectUUID)
    case bool(Bool)

    /// The value in the PLAIN encoding, as `Statistics.min_value`/`max_value` hold it.
    var plainBytes: [UInt8] {
        switch self {
        case .double(let v): return withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) }
        case .int64(let v): return withUnsafeBytes(of: v.littleEndian) { Array($0) }
        case .int32(let v): return withUnsafeBytes(of: v.littleEndian) { Array($0) }
        case .uuid(let v):
            return withUnsafeBytes(of: v.high.bigEndian) { Array($0) } + withUnsafeBytes(of: v.low.bigEndian) { Array($0) }
        case .bool(let v): return [v ? 1 : 0]
        }
    }
}
