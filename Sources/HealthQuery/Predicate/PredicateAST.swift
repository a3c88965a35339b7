import HealthModel

/// A parsed predicate (NSPredicate's format-string language over HealthKit key paths).
public indirect enum QueryPredicate: Sendable, CustomStringConvertible {
    case constant(Bool)
    case and([QueryPredicate])
    case or([QueryPredicate])
    case not(QueryPredicate)
    case comparison(Comparison)

    /// Printed in one normalized form, with explicit parentheses.
    public var description: String {
        switch self {
        case .constant(let value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .and(let parts): return parts.isEmpty ? "TRUEPREDICATE" : "(" + parts.map(\.description).joined(separator: " AND ") + ")"
        case .or(let parts): return parts.isEmpty ? "FALSEPREDICATE" : "(" + parts.map(\.description).joined(separator: " OR ") + ")"
        case .not(let inner): return "NOT " + inner.description
        case .comparison(let c): return c.description
        }
    }
}

/// `[quantifier] left op[options] right`.
public struct Comparison: Sendable, CustomStringConvertible {
    public enum Operator: String, Sendable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case between = "BETWEEN", `in` = "IN", contains = "CONTAINS", beginsWith = "BEGINSWITH"
        case endsWith = "ENDSWITH", like = "LIKE", matches = "MATCHES"
    }

    public enum Quantifier: String, Sendable {
        case anyElement = "ANY", allElements = "ALL", noElement = "NONE"
    }

    public var quantifier: Quantifier?
    public var left: PredicateExpression
    public var op: Operator
    public var caseInsensitive = false
    public var diacriticInsensitive = false
    public var right: PredicateExpression
    /// 1-based column of the operator, for errors found after parsing.
    public var column: Int

    public var description: String {
        var options = ""
        if caseInsensitive || diacriticInsensitive {
            options = "[" + (caseInsensitive ? "c" : "") + (diacriticInsensitive ? "d" : "") + "]"
        }
        return (quantifier.map { $0.rawValue + " " } ?? "") + "\(left) \(op.rawValue)\(options) \(right)"
    }
}

/// An operand.
public indirect enum PredicateExpression: Sendable, CustomStringConvertible {
    case keyPath(PredicateKeyPath, text: String, column: Int)
    case literal(PredicateValue, column: Int)
    case aggregate([PredicateExpression], column: Int)
    case arithmetic(PredicateExpression, String, PredicateExpression)
    case negate(PredicateExpression)

    public var description: String {
        switch self {
        case .keyPath(_, let text, _): return text
        case .literal(let value, _): return value.description
        case .aggregate(let items, _): return "{" + items.map(\.description).joined(separator: ", ") + "}"
        case .arithmetic(let a, let op, let b): return "(\(a) \(op) \(b))"
        case .negate(let e): return "-\(e)"
        }
    }

    var column: Int {
        switch self {
        case .keyPath(_, _, let column), .literal(_, let column), .aggregate(_, let column): return column
        case .arithmetic(let a, _, _): return a.column
        case .negate(let e): return e.column
        }
    }
}
