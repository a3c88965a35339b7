import Foundation
import HealthModel

/// One `--sort KEY[:asc|desc]` (HealthKit: `SortDescriptor` on a sample query descriptor).
public struct ObjectSortDescriptor: Sendable {
    public var keyPath: PredicateKeyPath
    public var text: String
    public var ascending: Bool

    /// Parses `startDate`, `startDate:desc`, `quantity:asc`.
    ///
    /// - Throws: `QueryError.errorInvalidArgument` for an unknown key or direction.
    public init(parsing argument: String) throws {
        let parts = argument.split(separator: ":", maxSplits: 1).map(String.init)
        guard let first = parts.first, let path = PredicateKeyPath.resolve(first) else {
            throw QueryError(
                .errorInvalidArgument, "\(argument: .sort): unknown key '\(argument.prefix(80))' (see healthport-predicates(7))", argument: .sort)
        }
        keyPath = path
        text = first
        switch parts.count > 1 ? parts[1].lowercased() : "asc" {
        case "asc", "ascending": ascending = true
        case "desc", "descending": ascending = false
        default: throw QueryError(.errorInvalidArgument, "\(argument: .sort): direction must be asc or desc, not '\(parts[1])'", argument: .sort)
        }
    }

    /// The object's key, reduced to something totally ordered.
    func key(of object: HealthObject) -> SortKey {
        SortKey(keyPath.value(of: object))
    }
}

/// A sort key value: nil first, then numbers (dates and quantities as numbers in their base
/// unit), then strings. Serializable, so that sorted runs can be spilled to disk.
enum SortKey: Comparable, Sendable {
    case null
    case number(Double)
    case string(String)

    init(_ value: PredicateValue) {
        switch value {
        case .null, .collection: self = .null
        case .bool(let b): self = .number(b ? 1 : 0)
        case .number(let n), .date(let n): self = .number(n)
        case .quantity(let v, let unit): self = .number(unit.toBase(v))
        case .string(let s): self = .string(s)
        case .enumerated(let raw, let name): self = raw.map { .number(Double($0)) } ?? name.map { .string($0) } ?? .null
        case .metadata(let m):
            switch m {
            case .number(let n): self = .number(n.value)
            case .date(let d): self = .number(Double(d.secondsSince1970))
            case .quantity(let q): self = (try? HealthUnit.cached(q.unit)).map { .number($0.toBase(q.value.value)) } ?? .string(q.text)
            case .string(let s): self = .string(s)
            }
        }
    }

    static func < (lhs: SortKey, rhs: SortKey) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return false
        case (.null, _): return true
        case (_, .null): return false
        case (.number(let a), .number(let b)): return a < b
        case (.number, .string): return true
        case (.string, .number): return false
        case (.string(let a), .string(let b)): return a < b
        }
    }

    func encode(into bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.append(0)
        case .number(let n):
            bytes.append(1)
            withUnsafeBytes(of: n.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        case .string(let s):
            bytes.append(2)
            let utf8 = Array(s.utf8)
            withUnsafeBytes(of: UInt32(utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: utf8)
        }
    }

    static func decode(_ bytes: [UInt8], at offset: inout Int) -> SortKey? {
        guard offset < bytes.count else { return nil }
        let tag = bytes[offset]
        offset += 1
        switch tag {
        case 0: return .null
        case 1:
            guard offset + 8 <= bytes.count else { return nil }
            var bits: UInt64 = 0
            for i in 0..<8 { bits |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
            offset += 8
            return .number(Double(bitPattern: bits))
        case 2:
            guard offset + 4 <= bytes.count else { return nil }
            var length = 0
            for i in 0..<4 { length |= Int(bytes[offset + i]) << (8 * i) }
            offset += 4
            guard offset + length <= bytes.count else { return nil }
            let s = String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
            offset += length
            return .string(s)
        default: return nil
        }
    }
}
