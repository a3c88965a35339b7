import Foundation
import HealthModel

/// Parses NSPredicate's format-string language (healthkit-reference.md §4.4) into a
/// `QueryPredicate`, binding literals to the kind of value their key path yields.
///
/// Supported: comparisons `== = != <> < <= =< > >= =>`, `BETWEEN`, `IN`, `CONTAINS`,
/// `BEGINSWITH`, `ENDSWITH`, `LIKE`, `MATCHES` with `[c]`, `[d]`, `[cd]`; `AND && OR || NOT !`
/// and parentheses; `ANY SOME ALL NONE`; `TRUEPREDICATE`, `FALSEPREDICATE`; string, number,
/// boolean and `nil` literals; aggregates `{a, b}`; `CAST(n, "NSDate")` (seconds since 2001, or
/// an ISO 8601 string); `now()`; `+ - * /` on numbers. Rejected with a clear error, never
/// mis-evaluated: `SUBQUERY`, `FETCH`, `ANYKEY`, `UTI-…`, other functions, `$variables` and
/// `%@`/`%K` arguments (there is nothing to substitute on a command line).
public struct PredicateParser {
    private let text: String
    private var tokens: [PredicateLexer.Located]
    private var position = 0
    private let timeZone: TimeZone
    private let now: Date

    /// Parses `text`; dates without an offset are read in `timeZone`.
    ///
    /// - Throws: `QueryPredicateError` with the column at fault.
    public static func parse(_ text: String, timeZone: TimeZone = .current, now: Date = Date()) throws -> QueryPredicate {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw QueryPredicateError("the predicate is empty", column: 1, source: text)
        }
        let tokens = try PredicateLexer.tokenize(text)
        try checkNesting(tokens, text: text)
        var parser = PredicateParser(text: text, tokens: tokens, timeZone: timeZone, now: now)
        let predicate = try parser.or()
        guard case .end = parser.current.token else {
            throw parser.error("unexpected \(parser.describe(parser.current.token))")
        }
        return predicate
    }

    /// The deepest nesting a predicate may have: parentheses and `NOT`/`!`/`-` chains together.
    /// The parser and the evaluator recurse once per level; tens of thousands of levels (a
    /// hostile or generated predicate) would overflow the stack, and no person writes 64.
    public static let maximumNesting = 64

    /// Refuses, before any recursion, a predicate nested deeper than `maximumNesting`.
    private static func checkNesting(_ tokens: [PredicateLexer.Located], text: String) throws {
        var depth = 0
        var unaryRun = 0
        for located in tokens {
            switch located.token {
            case .symbol("("):
                depth += 1
                unaryRun = 0
            case .symbol(")"):
                depth -= 1
                unaryRun = 0
            case .keyword("NOT"), .symbol("!"), .symbol("-"):
                unaryRun += 1
            default:
                unaryRun = 0
            }
            if depth + unaryRun > maximumNesting {
                throw QueryPredicateError(
                    "the predicate is nested deeper than \(maximumNesting) levels", column: located.column, source: text)
            }
        }
    }

    private init(text: String, tokens: [PredicateLexer.Located], timeZone: TimeZone, now: Date) {
        self.text = text
        self.tokens = tokens
        self.timeZone = timeZone
        self.now = now
    }

    private var current: PredicateLexer.Located { tokens[position] }

    private func error(_ message: String, at column: Int? = nil) -> QueryPredicateError {
        QueryPredicateError(message, column: column ?? current.column, source: text)
    }

    private func describe(_ token: PredicateLexer.Token) -> String {
        switch token {
        case .identifier(let s): return "'\(s)'"
        case .keyword(let s): return "'\(s)'"
        case .string(let s): return "\"\(s)\""
        case .number(_, let s): return "'\(s)'"
        case .symbol(let s): return "'\(s)'"
        case .variable(let s), .formatArgument(let s): return "'\(s)'"
        case .end: return "end of predicate"
        }
    }

    private mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    private mutating func accept(keyword: String) -> Bool {
        if case .keyword(let k) = current.token, k == keyword {
            advance()
            return true
        }
        return false
    }

    private mutating func accept(symbol: String) -> Bool {
        if case .symbol(let s) = current.token, s == symbol {
            advance()
            return true
        }
        return false
    }

    // MARK: Predicates

    private mutating func or() throws -> QueryPredicate {
        var parts = [try and()]
        while accept(keyword: "OR") || accept(symbol: "||") { parts.append(try and()) }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    private mutating func and() throws -> QueryPredicate {
        var parts = [try not()]
        while accept(keyword: "AND") || accept(symbol: "&&") { parts.append(try not()) }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    private mutating func not() throws -> QueryPredicate {
        if accept(keyword: "NOT") || accept(symbol: "!") { return .not(try not()) }
        return try atom()
    }

    private mutating func atom() throws -> QueryPredicate {
        if accept(keyword: "TRUEPREDICATE") { return .constant(true) }
        if accept(keyword: "FALSEPREDICATE") { return .constant(false) }
        if case .symbol("(") = current.token {
            // A parenthesized predicate, or a parenthesized expression starting a comparison.
            let saved = position
            advance()
            if let inner = try? or() {
                if accept(symbol: ")") {
                    if case .end = current.token { return inner }
                    if isPredicateContinuation { return inner }
                } else if case .end = current.token {
                    throw error("expected ')'")
                }
            }
            position = saved
        }
        return .comparison(try comparison())
    }

    private var isPredicateContinuation: Bool {
        switch current.token {
        case .keyword(let k): return k == "AND" || k == "OR"
        case .symbol(let s): return s == ")" || s == "&&" || s == "||"
        default: return false
        }
    }

    private mutating func comparison() throws -> Comparison {
        var quantifier: Comparison.Quantifier? = nil
        if accept(keyword: "ANY") || accept(keyword: "SOME") {
            quantifier = .anyElement
        } else if accept(keyword: "ALL") {
            quantifier = .allElements
        } else if accept(keyword: "NONE") {
            quantifier = .noElement
        }
        let left = try expression()
        let opColumn = current.column
        let op: Comparison.Operator
        switch current.token {
        case .symbol("=="), .symbol("="): op = .equal
        case .symbol("!="), .symbol("<>"): op = .notEqual
        case .symbol("<"): op = .less
        case .symbol("<="), .symbol("=<"): op = .lessOrEqual
        case .symbol(">"): op = .greater
        case .symbol(">="), .symbol("=>"): op = .greaterOrEqual
        case .keyword("BETWEEN"): op = .between
        case .keyword("IN"): op = .in
        case .keyword("CONTAINS"): op = .contains
        case .keyword("BEGINSWITH"): op = .beginsWith
        case .keyword("ENDSWITH"): op = .endsWith
        case .keyword("LIKE"): op = .like
        case .keyword("MATCHES"): op = .matches
        case .end: throw error("expected an operator after \(left)")
        default: throw error("expected an operator, found \(describe(current.token))")
        }
        let opText = describe(current.token)
        advance()
        var caseInsensitive = false
        var diacriticInsensitive = false
        if case .symbol("[") = current.token {
            advance()
            guard case .identifier(let flags) = current.token, !flags.isEmpty,
                flags.allSatisfy({ "cdCD".contains($0) })
            else { throw error("expected c, d or cd between [ ]") }
            caseInsensitive = flags.lowercased().contains("c")
            diacriticInsensitive = flags.lowercased().contains("d")
            advance()
            guard accept(symbol: "]") else { throw error("expected ']'") }
        }
        switch current.token {
        case .end, .keyword("AND"), .keyword("OR"), .symbol(")"), .symbol("&&"), .symbol("||"):
            throw error("expected a value after \(opText)")
        default:
            break
        }
        var right = try expression()
        var comparison = Comparison(
            quantifier: quantifier, left: left, op: op, caseInsensitive: caseInsensitive,
            diacriticInsensitive: diacriticInsensitive, right: right, column: opColumn)
        // Literals take the meaning of the key path they meet.
        if case .keyPath(let path, _, _) = left {
            right = try bind(right, to: path, op: op)
            comparison.right = right
        } else if case .keyPath(let path, _, _) = right, op != .in && op != .contains {
            comparison.left = try bind(left, to: path, op: op)
        }
        if op == .between {
            guard case .aggregate(let items, _) = comparison.right, items.count == 2 else {
                throw error("BETWEEN needs two values: {low, high}", at: comparison.right.column)
            }
        }
        if op == .matches, case .literal(.string(let pattern), let column) = comparison.right {
            do {
                _ = try NSRegularExpression(pattern: pattern)
            } catch {
                throw self.error("invalid regular expression", at: column)
            }
        }
        return comparison
    }

    // MARK: Expressions

    private mutating func expression() throws -> PredicateExpression {
        var result = try term()
        while case .symbol(let s) = current.token, s == "+" || s == "-" {
            advance()
            result = .arithmetic(result, s, try term())
        }
        return result
    }

    private mutating func term() throws -> PredicateExpression {
        var result = try unary()
        while case .symbol(let s) = current.token, s == "*" || s == "/" || s == "**" {
            advance()
            result = .arithmetic(result, s, try unary())
        }
        return result
    }

    private mutating func unary() throws -> PredicateExpression {
        if accept(symbol: "-") { return .negate(try primary()) }
        return try primary()
    }

    private mutating func primary() throws -> PredicateExpression {
        let column = current.column
        switch current.token {
        case .string(let s):
            advance()
            return .literal(.string(s), column: column)
        case .number(let n, _):
            advance()
            return .literal(.number(n), column: column)
        case .keyword(let k):
            switch k {
            case "TRUE", "YES":
                advance()
                return .literal(.bool(true), column: column)
            case "FALSE", "NO":
                advance()
                return .literal(.bool(false), column: column)
            case "NULL", "NIL":
                advance()
                return .literal(.null, column: column)
            case "CAST":
                advance()
                return try cast(column)
            case "SUBQUERY", "FETCH", "ANYKEY", "UTI-CONFORMS-TO", "UTI-EQUALS", "SELF", "FIRST", "LAST", "SIZE":
                throw error("\(k) is not supported by healthport")
            default:
                throw error("unexpected '\(k)'")
            }
        case .symbol("{"):
            advance()
            var items: [PredicateExpression] = []
            if !accept(symbol: "}") {
                repeat { items.append(try expression()) } while accept(symbol: ",")
                guard accept(symbol: "}") else { throw error("expected ',' or '}'") }
            }
            return .aggregate(items, column: column)
        case .symbol("("):
            advance()
            let inner = try expression()
            guard accept(symbol: ")") else { throw error("expected ')'") }
            return inner
        case .identifier:
            return try keyPathOrFunction()
        case .variable(let v):
            throw error("variables such as \(v) cannot be bound on the command line; write the value")
        case .formatArgument(let a):
            throw error("format arguments such as \(a) cannot be substituted on the command line; write the value or key path")
        case .end:
            throw error("expected a value")
        default:
            throw error("expected a value, found \(describe(current.token))")
        }
    }

    private mutating func keyPathOrFunction() throws -> PredicateExpression {
        let column = current.column
        var parts: [String] = []
        guard case .identifier(let first) = current.token else { throw error("expected a key path") }
        parts.append(first)
        advance()
        if case .symbol("(") = current.token {
            advance()
            guard first.lowercased() == "now", accept(symbol: ")") else {
                throw error("function \(first)() is not supported by healthport (only now())", at: column)
            }
            return .literal(.date(now.timeIntervalSince1970), column: column)
        }
        var quotedKey: String? = nil
        while accept(symbol: ".") {
            switch current.token {
            case .identifier(let part):
                parts.append(part)
                advance()
            case .keyword(let k):
                // Key path components may be words the language reserves (metadata.Size).
                parts.append(k)
                advance()
            case .string(let key) where parts == ["metadata"]:
                parts.append(key)
                quotedKey = key
                advance()
            default:
                throw error("expected a key path component after '.'")
            }
        }
        // metadata["key with spaces"]
        if parts == ["metadata"], accept(symbol: "[") {
            guard case .string(let key) = current.token else { throw error("expected a quoted metadata key") }
            advance()
            guard accept(symbol: "]") else { throw error("expected ']'") }
            parts.append(key)
            quotedKey = key
        }
        let text = parts.joined(separator: ".")
        guard let path = PredicateKeyPath.resolve(text) else {
            throw error("unknown key path '\(text)' (see healthport-predicates(7))", at: column)
        }
        // A quoted metadata key prints quoted, so that the printed form parses back (found by
        // Scripts/fuzz.sh predicate: `metadata."100 x"` printed as `metadata.100 x`).
        if let quotedKey { return .keyPath(path, text: "metadata[" + PredicateValue.quoted(quotedKey) + "]", column: column) }
        return .keyPath(path, text: text, column: column)
    }

    private mutating func cast(_ column: Int) throws -> PredicateExpression {
        guard accept(symbol: "(") else { throw error("expected '(' after CAST") }
        let value = try expression()
        guard accept(symbol: ",") else { throw error("expected ',' in CAST") }
        guard case .string(let type) = current.token else { throw error("expected a type name in CAST") }
        advance()
        guard accept(symbol: ")") else { throw error("expected ')' after CAST") }
        guard type == "NSDate" else { throw error("CAST to \(type) is not supported (only NSDate)", at: column) }
        switch value {
        case .literal(.number(let n), _):
            return .literal(.date(n + 978_307_200), column: column)
        case .negate(.literal(.number(let n), _)):
            // Dates before 2001, as the normalized form prints them.
            return .literal(.date(-n + 978_307_200), column: column)
        case .literal(.string(let s), let c):
            guard let date = PredicateValue.parseDate(s, timeZone: timeZone) else { throw error("invalid date \"\(s)\"", at: c) }
            return .literal(.date(date), column: column)
        case .literal(.date, _):
            return value
        default:
            throw error("CAST needs a number or a date string", at: column)
        }
    }

    // MARK: Binding literals to key paths

    private func bind(_ expression: PredicateExpression, to path: PredicateKeyPath, op: Comparison.Operator) throws -> PredicateExpression {
        switch expression {
        case .aggregate(let items, let column):
            return .aggregate(try items.map { try bind($0, to: path, op: op) }, column: column)
        case .literal(let value, let column):
            if case .null = value { return expression }
            if [.beginsWith, .endsWith, .like, .matches].contains(op) || (op == .contains && path.valueKind != .collection) {
                guard case .string = value else { throw error("\(op.rawValue) compares strings", at: column) }
                return expression
            }
            return .literal(try bind(value, to: path, column: column), column: column)
        default:
            return expression
        }
    }

    private func bind(_ value: PredicateValue, to path: PredicateKeyPath, column: Int) throws -> PredicateValue {
        switch path.valueKind {
        case .quantity, .durationQuantity:
            switch value {
            case .string(let s):
                guard let (number, unit) = PredicateValue.parseQuantity(s) else {
                    throw error("expected a quantity such as \"5 km\", found \"\(s)\"", at: column)
                }
                return .quantity(number, unit)
            case .number(let n) where path.valueKind == .durationQuantity:
                // HealthKit's workout duration is in seconds.
                return .quantity(n, try HealthUnit.cached("s"))
            case .number:
                throw error("compare a quantity with a quantity literal such as \"5 km\", not a bare number", at: column)
            default:
                throw error("expected a quantity such as \"5 km\"", at: column)
            }
        case .date:
            switch value {
            case .date: return value
            case .string(let s):
                guard let date = PredicateValue.parseDate(s, timeZone: timeZone) else {
                    throw error("expected a date such as \"2024-01-01\" or \"2024-01-01T08:00:00+01:00\", found \"\(s)\"", at: column)
                }
                return .date(date)
            default:
                throw error("compare dates with a date literal (\"2024-01-01\") or CAST(…, \"NSDate\")", at: column)
            }
        case .enumeration:
            switch value {
            case .string(let name):
                let raw = CategoryValue.rawValue(forName: name) ?? WorkoutActivityType(name: name).rawValue
                    ?? WorkoutActivityType(name: "HKWorkoutActivityType" + name).rawValue
                return .enumerated(raw: raw, name: name)
            case .number(let n):
                // A number that is no Int (1e30, 0.5) is no enum value: it stays a number, which
                // no enum value equals (found by Scripts/fuzz.sh predicate: Int(n) trapped).
                guard let raw = Int(exactly: n) else { return value }
                return .enumerated(raw: raw, name: nil)
            default: return value
            }
        case .number:
            if case .string(let s) = value, let n = Double(s) { return .number(n) }
            return value
        case .string:
            if case .number(let n) = value { return .string(PredicateValue.number(n).description) }
            return value
        case .metadata:
            // Metadata is text in the export: a literal that reads as "<number> <unit>" compares
            // as a quantity, unit-aware; anything else keeps its own kind.
            if case .string(let s) = value, let (number, unit) = PredicateValue.parseQuantity(s) {
                return .quantity(number, unit)
            }
            return value
        case .collection:
            return value
        }
    }
}
