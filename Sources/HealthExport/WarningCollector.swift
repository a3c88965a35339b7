/// Reports each kind of warning once, with its first location, and counts the rest, so that a
/// quirk repeated on a million records is one line on stderr, not a million.
final class WarningCollector {
    private let handler: (ExportWarning) -> Void
    private(set) var counts: [String: Int] = [:]
    private(set) var firsts: [String: ExportWarning] = [:]
    private(set) var order: [String] = []

    init(handler: @escaping (ExportWarning) -> Void) {
        self.handler = handler
    }

    func warn(_ key: String, _ message: @autoclosure () -> String, at location: @autoclosure () -> SourceLocation?) {
        if let count = counts[key] {
            counts[key] = count + 1
            return
        }
        counts[key] = 1
        let warning = ExportWarning(key: key, message: message(), location: location())
        firsts[key] = warning
        order.append(key)
        handler(warning)
    }

    /// Every warning kind met, in first-seen order, with how often it occurred.
    var summary: [(warning: ExportWarning, count: Int)] {
        order.compactMap { key in firsts[key].map { ($0, counts[key] ?? 1) } }
    }

    /// Takes over what another collector (a parallel read's chunk) met, as if met here: kinds
    /// new here are reported, with their first location moved by `lineOffset` lines.
    func absorb(_ other: WarningCollector, lineOffset: Int) {
        for key in other.order {
            guard let first = other.firsts[key] else { continue }
            let count = other.counts[key] ?? 1
            if let existing = counts[key] {
                counts[key] = existing + count
                continue
            }
            var warning = first
            if var location = warning.location, let line = location.line {
                location.line = line + lineOffset
                warning.location = location
            }
            counts[key] = count
            firsts[key] = warning
            order.append(key)
            handler(warning)
        }
    }
}
