import Foundation
import HealthJSON

/// Hive-style partitioned output (`key=value/` folders) that DuckDB, Spark, Trino and pandas
/// read with partition discovery: `lake/person=alice/type=HeartRate/part-0.csv`.
public struct PartitionLayout: Sendable, Equatable {
    public enum Key: String, Sendable, CaseIterable {
        /// The person an export belongs to (from its file name or a mapping file).
        case person
        /// The table: a type's short name (`HeartRate`), or a parts table (`WorkoutEvent`).
        case type
    }

    public let keys: [Key]

    public init(keys: [Key]) {
        self.keys = keys
    }

    /// Parses `person,type` (any order, each at most once).
    public init(parsing text: String) throws {
        var keys: [Key] = []
        for part in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
            guard let key = Key(rawValue: part) else {
                throw OutputError(
                    .invalidRequest, "\(argument: .partition): unknown key '\(part.prefix(40))' (use person, type, or both)", argument: .partition)
            }
            guard !keys.contains(key) else {
                throw OutputError(.invalidRequest, "\(argument: .partition): '\(part)' is given twice", argument: .partition)
            }
            keys.append(key)
        }
        guard !keys.isEmpty else {
            throw OutputError(.invalidRequest, "\(argument: .partition): name person, type, or both", argument: .partition)
        }
        self.keys = keys
    }

    public var splitsByType: Bool { keys.contains(.type) }

    /// Where one table of one person's export goes, relative to the output folder. Without a
    /// person key, several exports share each folder, so the file is named after the person.
    public func path(person: String, table: String, fileExtension: String) -> String {
        var components = keys.map { key -> String in
            switch key {
            case .person: return "person=" + person
            case .type: return "type=" + table
            }
        }
        components.append("part-" + (keys.contains(.person) ? "0" : person) + "." + fileExtension)
        return components.joined(separator: "/")
    }

    /// A person key from an export's file name: the name without its extensions, with anything
    /// but letters, digits, `-`, `_` and `.` replaced by `_` (a partition value is a folder name,
    /// and `=`, `/` or `%` would break discovery).
    public static func personKey(fromPath path: String) -> String {
        var name = URL(fileURLWithPath: path).lastPathComponent
        for suffix in [".zip", ".xml", ".ndjson", ".json"] where name.lowercased().hasSuffix(suffix) {
            name = String(name.dropLast(suffix.count))
            break
        }
        return sanitize(name)
    }

    public static func sanitize(_ value: String) -> String {
        var result = String(value.unicodeScalars.map { scalar -> Character in
            let ok = (scalar.value < 128) && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_" || scalar == ".")
            return ok ? Character(scalar) : "_"
        })
        if result.hasPrefix(".") { result = "_" + result.dropFirst() }
        if result.isEmpty { result = "_" }
        return String(result.prefix(120))
    }
}
