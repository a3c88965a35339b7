import Foundation
import HealthModel

/// Evaluates a predicate against one object with NSPredicate's semantics over healthport's
/// model (docs/reference/healthkit.md §4.5):
///
/// - A key path that does not apply to the object yields nil. `x == nil` is true then, and every
///   ordering or string comparison with nil is false; `NOT` is plain negation.
/// - Quantities compare unit-aware (`"5 km"` against a distance in miles); incompatible units
///   compare false.
/// - Category values and activity types compare by raw value when both sides have one, else by
///   name.
/// - Metadata values are text in the export; they are read as the literal's kind (a number, a
///   quantity, a date or a string) and compare false when they do not read as it.
public extension QueryPredicate {
    func evaluate(_ object: HealthObject) -> Bool {
        switch self {
        case .constant(let value): return value
        case .and(let parts):
            for part in parts where !part.evaluate(object) { return false }
            return true
        case .or(let parts):
            for part in parts where part.evaluate(object) { return true }
            return false
        case .not(let inner): return !inner.evaluate(object)
        case .comparison(let comparison): return comparison.evaluate(object)
        }
    }

    /// Every key path the predicate names.
    var keyPaths: [(PredicateKeyPath, String, Int)] {
        switch self {
        case .constant: return []
        case .and(let parts), .or(let parts): return parts.flatMap(\.keyPaths)
        case .not(let inner): return inner.keyPaths
        case .comparison(let c): return c.left.keyPaths + c.right.keyPaths
        }
    }
}

extension PredicateExpression {
    var keyPaths: [(PredicateKeyPath, String, Int)] {
        switch self {
        case .keyPath(let path, let text, let column): return [(path, text, column)]
        case .literal: return []
        case .aggregate(let items, _): return items.flatMap(\.keyPaths)
        case .arithmetic(let a, _, let b): return a.keyPaths + b.keyPaths
        case .negate(let e): return e.keyPaths
        }
    }

    func value(_ object: HealthObject) -> PredicateValue {
        switch self {
        case .keyPath(let path, _, _): return path.value(of: object)
        case .literal(let value, _): return value
        case .aggregate(let items, _): return .collection(items.map { $0.value(object) })
        case .negate(let e):
            switch e.value(object) {
            case .number(let n): return .number(-n)
            case .quantity(let v, let u): return .quantity(-v, u)
            default: return .null
            }
        case .arithmetic(let a, let op, let b):
            guard case .number(let x) = a.value(object).numeric, case .number(let y) = b.value(object).numeric else {
                return .null
            }
            switch op {
            case "+": return .number(x + y)
            case "-": return .number(x - y)
            case "*": return .number(x * y)
            case "/": return y == 0 ? .null : .number(x / y)
            default: return .number(pow(x, y))
            }
        }
    }
}

extension PredicateValue {
    var numeric: PredicateValue {
        switch self {
        case .number: return self
        case .bool(let b): return .number(b ? 1 : 0)
        case .metadata(.number(let n)): return .number(n.value)
        case .metadata(let m): return Double(m.text).map { .number($0) } ?? .null
        case .enumerated(let raw?, _): return .number(Double(raw))
        default: return .null
        }
    }

    /// The text string operators see.
    var text: String? {
        switch self {
        case .string(let s): return s
        case .metadata(let m): return m.text
        case .enumerated(_, let name): return name
        default: return nil
        }
    }

    /// Reads a metadata value as the kind of `other`.
    func coerced(like other: PredicateValue) -> PredicateValue {
        guard case .metadata(let m) = self else { return self }
        switch other {
        case .number, .bool: return numeric
        case .quantity:
            if case .quantity(let q) = m, let unit = try? HealthUnit.cached(q.unit) { return .quantity(q.value.value, unit) }
            return PredicateValue.parseQuantity(m.text).map { .quantity($0.0, $0.1) } ?? .null
        case .date:
            if case .date(let d) = m { return .date(Double(d.secondsSince1970)) }
            return ExportTimestamp.parse(m.text).map { .date(Double($0.secondsSince1970)) } ?? .null
        default: return .string(m.text)
        }
    }
}

extension Comparison {
    func evaluate(_ object: HealthObject) -> Bool {
        let lhs = left.value(object)
        let rhs = right.value(object)
        if let quantifier {
            let items: [PredicateValue]
            switch lhs {
            case .collection(let values): items = values
            case .null: items = []
            default: items = [lhs]
            }
            switch quantifier {
            case .anyElement: return items.contains { test($0, rhs) }
            case .allElements: return items.allSatisfy { test($0, rhs) }
            case .noElement: return !items.contains { test($0, rhs) }
            }
        }
        if case .collection(let values) = lhs, op != .contains, op != .in {
            // A to-many key path without a quantifier: true if any element matches.
            return values.contains { test($0, rhs) }
        }
        return test(lhs, rhs)
    }

    private func test(_ lhs: PredicateValue, _ rhs: PredicateValue) -> Bool {
        switch op {
        case .equal: return equal(lhs, rhs)
        case .notEqual: return !equal(lhs, rhs)
        case .less: return order(lhs, rhs).map { $0 == .orderedAscending } ?? false
        case .lessOrEqual: return order(lhs, rhs).map { $0 != .orderedDescending } ?? false
        case .greater: return order(lhs, rhs).map { $0 == .orderedDescending } ?? false
        case .greaterOrEqual: return order(lhs, rhs).map { $0 != .orderedAscending } ?? false
        case .between:
            guard case .collection(let bounds) = rhs, bounds.count == 2,
                let low = order(lhs, bounds[0]), let high = order(lhs, bounds[1])
            else { return false }
            return low != .orderedAscending && high != .orderedDescending
        case .in:
            switch rhs {
            case .collection(let values): return values.contains { equal(lhs, $0) }
            default:
                guard let needle = lhs.text, let haystack = rhs.text else { return false }
                return normalized(haystack).contains(normalized(needle))
            }
        case .contains:
            if case .collection(let values) = lhs { return values.contains { equal($0, rhs) } }
            guard let haystack = lhs.text, let needle = rhs.text else { return false }
            return normalized(haystack).contains(normalized(needle))
        case .beginsWith:
            guard let s = lhs.text, let prefix = rhs.text else { return false }
            return normalized(s).hasPrefix(normalized(prefix))
        case .endsWith:
            guard let s = lhs.text, let suffix = rhs.text else { return false }
            return normalized(s).hasSuffix(normalized(suffix))
        case .like:
            guard let s = lhs.text, let pattern = rhs.text else { return false }
            return Self.like(Array(normalized(s).unicodeScalars), Array(normalized(pattern).unicodeScalars))
        case .matches:
            guard let s = lhs.text, let pattern = rhs.text else { return false }
            guard let regex = RegexCache.shared.regex(pattern, caseInsensitive: caseInsensitive) else { return false }
            let subject = diacriticInsensitive ? s.folding(options: .diacriticInsensitive, locale: nil) : s
            return regex.firstMatch(in: subject, range: NSRange(subject.startIndex..., in: subject)) != nil
        }
    }

    private func normalized(_ s: String) -> String {
        var options: String.CompareOptions = []
        if caseInsensitive { options.insert(.caseInsensitive) }
        if diacriticInsensitive { options.insert(.diacriticInsensitive) }
        return options.isEmpty ? s : s.folding(options: options, locale: nil)
    }

    private func equal(_ lhs: PredicateValue, _ rhs: PredicateValue) -> Bool {
        if lhs.isNull || rhs.isNull { return lhs.isNull && rhs.isNull }
        if case .enumerated(let r1, let n1) = lhs, case .enumerated(let r2, let n2) = rhs {
            if let r1, let r2 { return r1 == r2 }
            return n1 != nil && n1 == n2
        }
        // An enumeration against a plain literal: by name against a string, by raw value
        // against a number (collections of event types are compared this way).
        if case .enumerated(let raw, let name) = lhs {
            if case .string(let s) = rhs { return name.map { normalized($0) == normalized(s) } ?? false }
            if case .number(let n) = rhs { return raw.map { Double($0) == n } ?? false }
        }
        if case .string(let a) = lhs.coerced(like: rhs), case .string(let b) = rhs.coerced(like: lhs) {
            return normalized(a) == normalized(b)
        }
        return order(lhs, rhs) == .orderedSame
    }

    private func order(_ lhs: PredicateValue, _ rhs: PredicateValue) -> ComparisonResult? {
        let a = lhs.coerced(like: rhs)
        let b = rhs.coerced(like: lhs)
        func compare<T: Comparable>(_ x: T, _ y: T) -> ComparisonResult {
            x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
        }
        switch (a, b) {
        case (.number(let x), .number(let y)): return compare(x, y)
        case (.date(let x), .date(let y)): return compare(x, y)
        case (.string(let x), .string(let y)): return compare(normalized(x), normalized(y))
        case (.quantity(let x, let ux), .quantity(let y, let uy)):
            // Convert the right operand into the left's unit (HealthKit: compare(_:)).
            guard let converted = try? uy.convert(y, to: ux) else { return nil }
            return compare(x, converted)
        case (.bool, _), (_, .bool), (.enumerated, _), (_, .enumerated):
            guard case .number(let x) = a.numeric, case .number(let y) = b.numeric else { return nil }
            return compare(x, y)
        default: return nil
        }
    }

    /// `LIKE`: `*` matches any run of characters, `?` exactly one; the whole string must match.
    static func like(_ s: [Unicode.Scalar], _ p: [Unicode.Scalar]) -> Bool {
        var si = 0, pi = 0
        var star = -1, mark = 0
        while si < s.count {
            if pi < p.count && (p[pi] == "?" || p[pi] == s[si]) {
                si += 1
                pi += 1
            } else if pi < p.count && p[pi] == "*" {
                star = pi
                mark = si
                pi += 1
            } else if star >= 0 {
                pi = star + 1
                mark += 1
                si = mark
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}

/// Compiled `MATCHES` patterns: a predicate is evaluated once per object, and compiling an ICU
/// pattern costs far more than matching it. Patterns come from the command line: few, bounded.
final class RegexCache: @unchecked Sendable {
    static let shared = RegexCache()
    private let lock = NSLock()
    private var compiled: [String: NSRegularExpression] = [:]

    func regex(_ pattern: String, caseInsensitive: Bool) -> NSRegularExpression? {
        let key = (caseInsensitive ? "i:" : "s:") + pattern
        lock.lock()
        defer { lock.unlock() }
        if let regex = compiled[key] { return regex }
        var options: NSRegularExpression.Options = []
        if caseInsensitive { options.insert(.caseInsensitive) }
        // MATCHES matches the whole string.
        guard let regex = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$", options: options) else { return nil }
        if compiled.count < 1000 { compiled[key] = regex }
        return regex
    }
}
