/// Reports each kind of warning once, with its first location, and counts the rest, so that a
/// quirk repeated on a million records is one line on stderr, not a million.
///
/// At most `maximumKinds` kinds are told apart: a hostile export can make a new kind with every
/// record (an unknown type, element or attribute name each time), and each kind is kept. Past
/// the bound, the kinds met are counted together under one more warning (`otherKinds`), which
/// keeps memory bounded whatever the export; the first `maximumKinds` kinds met, in document
/// order, are the ones told apart, in a parallel read too (`absorb`).
final class WarningCollector {
    static let maximumKinds = 10_000
    static let otherKinds = "otherKinds"

    private let handler: (ExportWarning) -> Void
    private(set) var counts: [String: Int] = [:]
    private(set) var firsts: [String: ExportWarning] = [:]
    private(set) var order: [String] = []
    /// Warnings of kinds past the bound, and the first of them.
    private(set) var otherCount = 0
    private(set) var firstOther: ExportWarning? = nil

    init(handler: @escaping (ExportWarning) -> Void) {
        self.handler = handler
    }

    func warn(_ key: String, _ message: @autoclosure () -> String, at location: @autoclosure () -> SourceLocation?) {
        if let count = counts[key] {
            counts[key] = count + 1
            return
        }
        guard order.count < Self.maximumKinds else {
            countOther(1) { location() }
            return
        }
        counts[key] = 1
        let warning = ExportWarning(key: key, message: message(), location: location())
        firsts[key] = warning
        order.append(key)
        handler(warning)
    }

    /// Counts warnings of kinds past the bound; the first is reported.
    private func countOther(_ count: Int, at location: () -> SourceLocation?) {
        otherCount += count
        guard firstOther == nil else { return }
        let warning = ExportWarning(
            key: Self.otherKinds,
            message: "more than \(Self.maximumKinds) kinds of warnings; the others are counted together", location: location())
        firstOther = warning
        handler(warning)
    }

    /// Every warning kind met, in first-seen order, with how often it occurred (the kinds past
    /// the bound last, together).
    var summary: [(warning: ExportWarning, count: Int)] {
        var kinds = order.compactMap { key in firsts[key].map { ($0, counts[key] ?? 1) } }
        if let firstOther { kinds.append((firstOther, otherCount)) }
        return kinds
    }

    /// Takes over what another collector (a parallel read's chunk) met, as if met here: kinds
    /// new here are reported, with their first location moved by `lineOffset` lines.
    func absorb(_ other: WarningCollector, lineOffset: Int) {
        func moved(_ warning: ExportWarning) -> ExportWarning {
            var warning = warning
            if var location = warning.location, let line = location.line {
                location.line = line + lineOffset
                warning.location = location
            }
            return warning
        }
        for key in other.order {
            guard let first = other.firsts[key] else { continue }
            let count = other.counts[key] ?? 1
            if let existing = counts[key] {
                counts[key] = existing + count
                continue
            }
            guard order.count < Self.maximumKinds else {
                countOther(count) { moved(first).location }
                continue
            }
            counts[key] = count
            firsts[key] = moved(first)
            order.append(key)
            handler(moved(first))
        }
        // A chunk past the bound itself is read again sequentially (`ChunkResult.parsed`), so
        // what it counted together is never absorbed.
    }

    /// Whether kinds past the bound were counted together.
    var overflowed: Bool { firstOther != nil }
}
