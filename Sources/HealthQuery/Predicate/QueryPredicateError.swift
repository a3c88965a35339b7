import HealthModel

/// A predicate that cannot be parsed or cannot apply, with the 1-based column it concerns.
///
/// HealthKit raises `errorInvalidArgument` for predicates it cannot translate; healthport
/// reports the same code, with the position, before reading any data.
public struct QueryPredicateError: LocatedError {
    /// What is wrong, for callers that treat one fault apart (never the message's text).
    public enum Code: Sendable, Hashable {
        /// The predicate does not parse, or does not apply to the types queried.
        case invalid
        /// The predicate nests deeper than `PredicateParser.maximumNesting` levels.
        case nestedTooDeep
    }

    public var code: Code
    public var message: String
    /// 1-based column in the predicate text; `nil` when the fault has no position.
    public var column: Int?
    /// The predicate text, for showing a caret under `column`.
    public var source: String

    public init(_ message: String, column: Int?, source: String, code: Code = .invalid) {
        self.code = code
        self.message = message
        self.column = column
        self.source = source
    }

    /// The part of the request at fault: the predicate, at `column`. Each face names it in its
    /// own words (the CLI `--where:1:13`, the assistant `'predicate'`), so the message never does.
    public var argument: RequestArgument { .predicate }

    /// The column, as a compiler names a place in one line of text: `1:13`.
    public var place: String? { column.map { "1:\($0)" } }

    /// The predicate with a caret under the offending column, for a terminal.
    ///
    /// A long predicate is shown as the 100 characters around the fault (`…` marks the cuts), so
    /// that a generated one of kilobytes does not flood the terminal.
    public var caretLines: [String] {
        guard let column, !source.contains("\n") else { return [] }
        let characters = Array(source)
        let start = max(0, min(column - 1, characters.count) - 60)
        let end = min(characters.count, start + 100)
        let prefix = start > 0 ? "…" : ""
        let suffix = end < characters.count ? "…" : ""
        let shown = prefix + String(characters[start..<end]) + suffix
        return ["  " + shown, "  " + String(repeating: " ", count: max(0, column - 1 - start + prefix.count)) + "^"]
    }
}
