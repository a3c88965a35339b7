import Foundation
import HealthModel

/// What a read asks for. Today: which types. The predicate language, sorting, limits and the
/// authorization policy join here, so that every command reads through one path.
public struct ObjectQuery: Sendable {
    /// Type identifiers to keep; `nil` keeps everything.
    public var types: Set<String>?

    public init(types: Set<String>? = nil) {
        self.types = types
    }

    public static let all = ObjectQuery()
}

/// The single read path from parsed objects to output: every object passes `admits` before any
/// writer sees it.
public struct QueryExecutor: Sendable {
    public let query: ObjectQuery

    public init(_ query: ObjectQuery) {
        self.query = query
    }

    @inline(__always)
    public func admits(_ object: HealthObject) -> Bool {
        guard let types = query.types else { return true }
        return types.contains(object.objectType.identifier)
    }
}

/// A failure to understand a query. One type for the module; codes follow HealthKit's
/// (`errorInvalidArgument`).
public struct QueryError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Hashable {
        case errorInvalidArgument
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

/// Resolves the type names a person typed on the command line.
public enum TypeNameResolver {
    /// `StepCount`, `stepcount`, `HKQuantityTypeIdentifierStepCount`, `Workout`,
    /// `ActivitySummary` → full identifiers. Unknown names are accepted verbatim when they look
    /// like HealthKit identifiers (`HK…`), so that types newer than healthport can be selected.
    ///
    /// - Throws: `QueryError.errorInvalidArgument` naming the first name that matches nothing.
    public static func resolve(_ names: [String]) throws -> Set<String> {
        var result = Set<String>()
        for raw in names {
            for part in raw.split(separator: ",") {
                let name = part.trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else { continue }
                if let identifier = TypeCatalogue.resolve(userTypeName: name) {
                    result.insert(identifier)
                } else if name.hasPrefix("HK") {
                    result.insert(name)
                } else {
                    throw QueryError(.errorInvalidArgument, "unknown type '\(name.prefix(80))' (see healthport-formats(5) for type names)")
                }
            }
        }
        return result
    }
}
