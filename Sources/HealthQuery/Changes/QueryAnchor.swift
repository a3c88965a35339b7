import Crypto
import Foundation
import HealthModel

/// An opaque, versioned token that stands for "everything this consumer has seen" (HealthKit:
/// `HKQueryAnchor`), saved as a compact file in place of the old export.
///
/// It holds the identity set of the *base* snapshot, the hash of the query it was made for, and,
/// while a batch loop is under way, the *target* snapshot and how many of its changes were
/// already returned. After the last batch the base becomes the target: caught up.
///
/// File layout (all integers little-endian; the whole file is covered by a SHA-256 checksum):
/// `HPANCHOR`, version (1), flags, base export date, query hash (32 bytes), base digest (16),
/// target digest (16), position, type table, object count, then per object the uuid (16 bytes)
/// and a type index (varint), sorted by uuid, then the checksum.
public struct QueryAnchor: Sendable, Equatable {
    public static let formatVersion: UInt8 = 1
    static let magic = Array("HPANCHOR".utf8)

    public var base: IdentitySet
    /// When the base export was made.
    public var baseExportDate: Int64?
    /// The query the anchor belongs to (`QueryExecutor.queryHash`).
    public var queryHash: [UInt8]
    /// While a batch loop is under way: the export being caught up with, and changes returned.
    public var target: ObjectUUID?
    /// The target export's date, checked before any change is returned.
    public var targetExportDate: Int64?
    public var position: Int

    public init(
        base: IdentitySet, baseExportDate: Int64?, queryHash: [UInt8], target: ObjectUUID? = nil,
        targetExportDate: Int64? = nil, position: Int = 0
    ) {
        self.base = base
        self.baseExportDate = baseExportDate
        self.queryHash = queryHash
        self.target = target
        self.targetExportDate = targetExportDate
        self.position = position
    }

    /// The anchor of a query that has seen nothing (HealthKit's `nil` anchor).
    public static func origin(queryHash: [UInt8]) -> QueryAnchor {
        QueryAnchor(base: IdentitySet(), baseExportDate: nil, queryHash: queryHash)
    }

    // MARK: Encoding

    public func encoded() -> [UInt8] {
        var bytes = Self.magic
        bytes.append(Self.formatVersion)
        bytes.append(target == nil ? 0 : 1)
        Self.append(UInt64(bitPattern: baseExportDate ?? Int64.min), to: &bytes)
        bytes.append(contentsOf: queryHash.count == 32 ? queryHash : Array(repeating: 0, count: 32))
        Self.append(base.digest, to: &bytes)
        Self.append(target ?? ObjectUUID(high: 0, low: 0), to: &bytes)
        Self.append(UInt64(bitPattern: targetExportDate ?? Int64.min), to: &bytes)
        Self.append(UInt64(position), to: &bytes)
        bytes.appendULEB128(UInt64(base.types.count))
        for type in base.types {
            let utf8 = Array(type.utf8)
            bytes.appendULEB128(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
        Self.append(UInt64(base.count), to: &bytes)
        for index in 0..<base.count {
            Self.append(base.uuids[index], to: &bytes)
            bytes.appendULEB128(UInt64(base.typeIndices[index]))
        }
        bytes.append(contentsOf: SHA256.hash(data: bytes))
        return bytes
    }

    /// Reads an anchor file's bytes.
    ///
    /// - Throws: `AnchorError` for anything that is not an intact anchor of this format.
    public init(decoding bytes: [UInt8]) throws {
        guard bytes.count >= 8 + 2 + 8 + 32 + 16 + 16 + 8 + 8 + 1 + 8 + 32, Array(bytes[0..<8]) == Self.magic else {
            throw AnchorError("not a healthport anchor")
        }
        let body = Array(bytes[0..<(bytes.count - 32)])
        guard Array(SHA256.hash(data: body)) == Array(bytes[(bytes.count - 32)...]) else {
            throw AnchorError("the anchor is damaged (checksum mismatch)")
        }
        guard bytes[8] == Self.formatVersion else {
            throw AnchorError("anchor format version \(bytes[8]) is not supported (this healthport reads version \(Self.formatVersion))")
        }
        var reader = ByteReader(bytes: body, offset: 10)
        let date = Int64(bitPattern: try reader.uint64())
        baseExportDate = date == Int64.min ? nil : date
        queryHash = try reader.bytes(32)
        let storedDigest = try reader.uuid()
        let targetValue = try reader.uuid()
        target = bytes[9] & 1 == 1 ? targetValue : nil
        let targetDate = Int64(bitPattern: try reader.uint64())
        targetExportDate = targetDate == Int64.min ? nil : targetDate
        position = Int(try reader.uint64())
        var set = IdentitySet()
        let typeCount = Int(try reader.varint())
        var types: [String] = []
        for _ in 0..<typeCount {
            let length = Int(try reader.varint())
            types.append(String(decoding: try reader.bytes(length), as: UTF8.self))
        }
        let count = Int(try reader.uint64())
        guard count <= (body.count - reader.offset) / 17 + 1 else { throw AnchorError("the anchor is damaged (count)") }
        for _ in 0..<count {
            let uuid = try reader.uuid()
            let typeIndex = Int(try reader.varint())
            guard typeIndex < types.count else { throw AnchorError("the anchor is damaged (type index)") }
            set.insert(uuid, type: types[typeIndex])
        }
        guard reader.offset == body.count else { throw AnchorError("the anchor is damaged (trailing bytes)") }
        set.finish()
        guard set.digest == storedDigest else { throw AnchorError("the anchor is damaged (digest)") }
        base = set
    }

    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    static func append(_ uuid: ObjectUUID, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: uuid.high.bigEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: uuid.low.bigEndian) { bytes.append(contentsOf: $0) }
    }

    // MARK: Files

    public static func load(from path: String) throws -> QueryAnchor {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AnchorError("cannot read the anchor file \(path)")
        }
        do {
            return try QueryAnchor(decoding: Array(data))
        } catch var error as AnchorError {
            error.text = error.text.prefixed(by: "\(path): ")
            throw error
        }
    }
}

/// An anchor that cannot be read or does not fit the query or export.
///
/// The part at fault is always the anchor (`argument`); a message that mentions a part of the
/// request holds it as a value (`text`), so each face names it in its own words.
public struct AnchorError: Error, Sendable, CustomStringConvertible {
    /// The message, with the parts of the request it mentions as values.
    public var text: DiagnosticText
    public init(_ message: String) { self.text = DiagnosticText(message) }
    public init(_ text: DiagnosticText) { self.text = text }
    /// The message in no face's words.
    public var message: String { text.neutral }
    /// The part of the request at fault: the anchor.
    public var argument: RequestArgument { .anchor }
    public var description: String { message }
}

struct ByteReader {
    let bytes: [UInt8]
    var offset: Int

    mutating func bytes(_ n: Int) throws -> [UInt8] {
        guard n >= 0, offset + n <= bytes.count else { throw AnchorError("the anchor is damaged (truncated)") }
        defer { offset += n }
        return Array(bytes[offset..<(offset + n)])
    }

    mutating func uint64() throws -> UInt64 {
        let raw = try bytes(8)
        var value: UInt64 = 0
        for i in 0..<8 { value |= UInt64(raw[i]) << (8 * UInt64(i)) }
        return value
    }

    mutating func uuid() throws -> ObjectUUID {
        let raw = try bytes(16)
        var high: UInt64 = 0, low: UInt64 = 0
        for i in 0..<8 { high = high << 8 | UInt64(raw[i]) }
        for i in 8..<16 { low = low << 8 | UInt64(raw[i]) }
        return ObjectUUID(high: high, low: low)
    }

    mutating func varint() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try bytes(1)[0]
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
            guard shift < 64 else { throw AnchorError("the anchor is damaged (varint)") }
        }
    }
}
