import Foundation
import HealthModel

/// A value a predicate compares: a literal, or what a key path yields for one object.
public enum PredicateValue: Sendable, CustomStringConvertible {
    /// A string literal as the language reads it back: quotes and backslashes escaped.
    public static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    /// An instant, in seconds since 1970.
    case date(Double)
    case quantity(Double, HealthUnit)
    /// An enumeration known by name and (when known) raw value: category values, activity types.
    case enumerated(raw: Int?, name: String?)
    /// A metadata value, typed lazily by the operand it is compared with.
    case metadata(MetadataValue)
    case collection([PredicateValue])

    public var description: String {
        switch self {
        case .null: return "nil"
        case .bool(let b): return b ? "YES" : "NO"
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .string(let s): return Self.quoted(s)
        case .date(let seconds): return String(format: "CAST(%.6f, \"NSDate\")", seconds - 978_307_200)
        case .quantity(let value, let unit): return "\"\(PredicateValue.number(value).description) \(unit.text)\""
        case .enumerated(let raw, let name): return name.map(Self.quoted) ?? raw.map(String.init) ?? "nil"
        case .metadata(let m): return PredicateValue.string(m.text).description
        case .collection(let items): return "{" + items.map(\.description).joined(separator: ", ") + "}"
        }
    }

    var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension PredicateValue {
    /// Parses a date literal: ISO 8601 with or without time and offset (`2024-01-01`,
    /// `2024-01-01T08:00`, `2024-01-01T08:00:00+01:00`, `…Z`) or the export's form. A date or
    /// time without an offset is read in `timeZone`.
    public static func parseDate(_ text: String, timeZone: TimeZone) -> Double? {
        if let exact = ExportTimestamp.parse(text) { return Double(exact.secondsSince1970) }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: "T", maxSplits: 1).flatMap { $0.split(separator: " ", maxSplits: 1) }
        guard let datePart = parts.first, let day = CalendarDate.parse(String(datePart)) else { return nil }
        var hour = 0, minute = 0, second = 0
        var offset: Int? = nil
        if parts.count == 2 {
            var time = String(parts[1])
            if time.hasSuffix("Z") {
                offset = 0
                time.removeLast()
            } else if let signIndex = time.lastIndex(where: { $0 == "+" || $0 == "-" }) {
                let zone = time[time.index(after: signIndex)...].replacingOccurrences(of: ":", with: "")
                guard zone.count == 4, let hh = Int(zone.prefix(2)), let mm = Int(zone.suffix(2)) else { return nil }
                offset = (hh * 3600 + mm * 60) * (time[signIndex] == "-" ? -1 : 1)
                time = String(time[..<signIndex])
            }
            let fields = time.split(separator: ":")
            guard fields.count >= 2, fields.count <= 3, let h = Int(fields[0]), let m = Int(fields[1]),
                h < 24, m < 60
            else { return nil }
            hour = h
            minute = m
            if fields.count == 3 {
                guard let s = Double(fields[2]), s < 61 else { return nil }
                second = Int(s)
            }
        }
        let local = Double(CalendarDate.daysFromCivil(year: day.year, month: day.month, day: day.day)) * 86_400
            + Double(hour * 3600 + minute * 60 + second)
        if let offset { return local - Double(offset) }
        // The zone's offset at that local time.
        let guess = Date(timeIntervalSince1970: local)
        let zoneOffset = Double(timeZone.secondsFromGMT(for: guess))
        let corrected = Date(timeIntervalSince1970: local - zoneOffset)
        return local - Double(timeZone.secondsFromGMT(for: corrected))
    }

    /// Parses `"<number> <unit>"`.
    public static func parseQuantity(_ text: String) -> (Double, HealthUnit)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let space = trimmed.firstIndex(of: " ") else { return nil }
        guard let value = Double(trimmed[..<space]),
            let unit = try? HealthUnit.cached(String(trimmed[trimmed.index(after: space)...]).trimmingCharacters(in: .whitespaces))
        else { return nil }
        return (value, unit)
    }
}
