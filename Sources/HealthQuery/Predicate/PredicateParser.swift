import Foundation
import HealthModel

/// Parses NSPredicate's format-string language (docs/reference/healthkit.md §4.4) into a
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
    /// - Throws: `QueryPredicateError` with the column at fault (code `.nestedTooDeep` for a
    ///   predicate nested deeper than `maximumNesting`).
    public static func parse(_ text: String, timeZone: TimeZone = .current, now: Date = Date()) throws -> QueryPredicate {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw QueryPredicateError("the predicate is empty", column: 1, source: text)
        }
        let tokens = try PredicateLexer.tokenize(text)
        var parser = PredicateParser(text: text, tokens: tokens, timeZone: timeZone, now: now)
        let (predicate, _) = try parser.or()
        guard case .end = parser.current.token else {
            throw parser.error("unexpected \(parser.describe(parser.current.token))")
        }
        return predicate
    }

    /// The deepest nesting a predicate may have, counted two ways, each held to this bound:
    ///
    /// - As written: each parenthesis, brace, `NOT`, `!` and unary `-` opens a level. The parser
    ///   recurses once per level.
    /// - As parsed, which is how `description` prints it back: each `NOT`, brace and unary `-`,
    ///   and each `AND`/`OR` group and arithmetic operator, which the printed form parenthesizes
    ///   (`a + b + c` is `((a + b) + c)`, two levels), and each date (`CAST(…)`). The evaluator,
    ///   the printer and the release of the tree recurse once per level.
    ///
    /// Tens of thousands of levels (a hostile or generated predicate) would overflow the stack,
    /// and no person writes 64. Counting the parsed form too keeps a long chain such as
    /// `1 + 1 + … + 1` from building a deep tree, and makes every predicate that parses print a
    /// form that parses again.
    public static let maximumNesting = 64

    /// Levels open at the current token, as written.
    private var depth = 0

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

    private func tooDeep(at column: Int) -> QueryPredicateError {
        QueryPredicateError(
            "the predicate is nested deeper than \(Self.maximumNesting) levels", column: column, source: text, code: .nestedTooDeep)
    }

    /// Parses one level deeper, as written: refused past `maximumNesting`, before recursing.
    private mutating func nested<T>(at column: Int, _ body: (inout PredicateParser) throws -> T) throws -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumNesting else { throw tooDeep(at: column) }
        return try body(&self)
    }

    /// `nesting`, a parsed node's levels, when within `maximumNesting`.
    private func checked(_ nesting: Int, at column: Int) throws -> Int {
        guard nesting <= Self.maximumNesting else { throw tooDeep(at: column) }
        return nesting
    }

    /// The levels of an operand as `description` prints it: one for each brace, unary minus and
    /// parenthesized arithmetic; a date prints as `CAST(…)` and a negative number with its
    /// minus. Called on trees already held within the bound, so its recursion is bounded too.
    static func nesting(of expression: PredicateExpression) -> Int {
        switch expression {
        case .keyPath: return 0
        case .literal(let value, _): return nesting(of: value)
        case .aggregate(let items, _):
            var deepest = 0
            for item in items { deepest = max(deepest, nesting(of: item)) }
            return deepest + 1
        case .arithmetic(let a, _, let b): return 1 + max(nesting(of: a), nesting(of: b))
        case .negate(let e): return 1 + nesting(of: e)
        }
    }

    static func nesting(of value: PredicateValue) -> Int {
        switch value {
        case .number(let n): return n.sign == .minus && n != 0 ? 1 : 0
        case .date(let seconds): return (seconds - 978_307_200).sign == .minus ? 2 : 1
        case .enumerated(let raw?, nil): return raw < 0 ? 1 : 0
        case .collection(let items):
            var deepest = 0
            for item in items { deepest = max(deepest, nesting(of: item)) }
            return deepest + 1
        default: return 0
        }
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

    // Each returns the predicate with its levels as printed (see `maximumNesting`).

    private mutating func or() throws -> (QueryPredicate, nesting: Int) {
        var parts = [try and()]
        let column = current.column
        while accept(keyword: "OR") || accept(symbol: "||") { parts.append(try and()) }
        if parts.count == 1 { return parts[0] }
        return (.or(parts.map(\.0)), try checked(1 + parts.map(\.nesting).max()!, at: column))
    }

    private mutating func and() throws -> (QueryPredicate, nesting: Int) {
        var parts = [try not()]
        let column = current.column
        while accept(keyword: "AND") || accept(symbol: "&&") { parts.append(try not()) }
        if parts.count == 1 { return parts[0] }
        return (.and(parts.map(\.0)), try checked(1 + parts.map(\.nesting).max()!, at: column))
    }

    private mutating func not() throws -> (QueryPredicate, nesting: Int) {
        let column = current.column
        if accept(keyword: "NOT") || accept(symbol: "!") {
            let inner = try nested(at: column) { try $0.not() }
            return (.not(inner.0), try checked(1 + inner.nesting, at: column))
        }
        return try atom()
    }

    private mutating func atom() throws -> (QueryPredicate, nesting: Int) {
        if accept(keyword: "TRUEPREDICATE") { return (.constant(true), 0) }
        if accept(keyword: "FALSEPREDICATE") { return (.constant(false), 0) }
        if case .symbol("(") = current.token {
            // A parenthesized predicate, or a parenthesized expression starting a comparison.
            let saved = position
            let column = current.column
            advance()
            var inner: (QueryPredicate, nesting: Int)? = nil
            do {
                inner = try nested(at: column) { try $0.or() }
            } catch let error as QueryPredicateError where error.code == .nestedTooDeep {
                // Read as an expression, it would nest as deep.
                throw error
            } catch {
                inner = nil
            }
            if let inner {
                if accept(symbol: ")") {
                    if case .end = current.token { return inner }
                    if isPredicateContinuation { return inner }
                } else if case .end = current.token {
                    throw error("expected ')'")
                }
            }
            position = saved
        }
        let (comparison, nesting) = try comparison()
        return (.comparison(comparison), nesting)
    }

    private var isPredicateContinuation: Bool {
        switch current.token {
        case .keyword(let k): return k == "AND" || k == "OR"
        case .symbol(let s): return s == ")" || s == "&&" || s == "||"
        default: return false
        }
    }

    private mutating func comparison() throws -> (Comparison, nesting: Int) {
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
        // Bound literals may print deeper than they were written (a date as `CAST(…)`).
        let nesting = max(Self.nesting(of: comparison.left), Self.nesting(of: comparison.right))
        return (comparison, try checked(nesting, at: opColumn))
    }

    // MARK: Expressions

    private mutating func expression() throws -> PredicateExpression {
        try chain(of: ["+", "-"]) { try $0.term() }
    }

    private mutating func term() throws -> PredicateExpression {
        try chain(of: ["*", "/", "**"]) { try $0.unary() }
    }

    /// `operand (op operand)*`, left-associative. The loop does not recurse, but the tree it
    /// builds is one level deeper per operator, so the operators count against the bound.
    private mutating func chain(of operators: Set<String>, _ operand: (inout PredicateParser) throws -> PredicateExpression) throws
        -> PredicateExpression
    {
        var result = try operand(&self)
        var nesting: Int? = nil
        while case .symbol(let s) = current.token, operators.contains(s) {
            let column = current.column
            advance()
            let right = try operand(&self)
            nesting = try checked(1 + max(nesting ?? Self.nesting(of: result), Self.nesting(of: right)), at: column)
            result = .arithmetic(result, s, right)
        }
        return result
    }

    private mutating func unary() throws -> PredicateExpression {
        let column = current.column
        // `- -1` is 1: a run of minus signs nests, and is bounded like any nesting.
        if accept(symbol: "-") { return .negate(try nested(at: column) { try $0.unary() }) }
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
            let aggregate = try nested(at: column) { parser -> PredicateExpression in
                var items: [PredicateExpression] = []
                if !parser.accept(symbol: "}") {
                    repeat { items.append(try parser.expression()) } while parser.accept(symbol: ",")
                    guard parser.accept(symbol: "}") else { throw parser.error("expected ',' or '}'") }
                }
                return .aggregate(items, column: column)
            }
            _ = try checked(Self.nesting(of: aggregate), at: column)
            return aggregate
        case .symbol("("):
            advance()
            return try nested(at: column) { parser in
                let inner = try parser.expression()
                guard parser.accept(symbol: ")") else { throw parser.error("expected ')'") }
                return inner
            }
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
            let parenthesis = current.column
            advance()
            try nested(at: parenthesis) { _ in }
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
        let parenthesis = current.column
        guard accept(symbol: "(") else { throw error("expected '(' after CAST") }
        let (value, type) = try nested(at: parenthesis) { parser -> (PredicateExpression, String) in
            let value = try parser.expression()
            guard parser.accept(symbol: ",") else { throw parser.error("expected ',' in CAST") }
            guard case .string(let type) = parser.current.token else { throw parser.error("expected a type name in CAST") }
            parser.advance()
            guard parser.accept(symbol: ")") else { throw parser.error("expected ')' after CAST") }
            return (value, type)
        }
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
