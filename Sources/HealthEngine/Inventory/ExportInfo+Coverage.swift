import Foundation
import HealthModel

extension ExportInfo {
    /// The coverage as a table people read: one line per type, its short name, first and last
    /// day, days with data, objects, and for heart rate the hours worn and their share of the
    /// days with data (`TypeCoverage`).
    public func coverageText() -> String {
        let rows = coverage ?? []
        let names = rows.map { TypeCatalogue.shortName(of: $0.type) }
        let width = max(4, names.map(\.count).max() ?? 4)
        func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
            let padding = String(repeating: " ", count: max(0, width - text.count))
            return right ? padding + text : text + padding
        }
        var lines = [pad("TYPE", width) + "  FIRST       LAST         DAYS    SAMPLES   HOURS  SHARE"]
        for (row, name) in zip(rows, names) {
            var line = pad(name, width) + "  " + row.firstDay.text + "  " + row.lastDay.text + "  " + pad(String(row.days), 5, right: true)
            line += "  " + pad(String(row.samples), 9, right: true)
            if let hours = row.coveredHours, let share = row.coveredShare {
                line += "  " + pad(String(hours), 6, right: true) + "  " + String(format: "%.2f", share)
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The coverage as one JSON array, the `coverage` table's columns (healthport-formats(5)).
    public func coverageJSON() throws -> String {
        let rows: [[String: Any]] = (coverage ?? []).map { row in
            var object: [String: Any] = [
                "sampleType": row.type, "firstDay": row.firstDay.text, "lastDay": row.lastDay.text, "days": row.days, "samples": row.samples,
            ]
            if let hours = row.coveredHours { object["coveredHours"] = hours }
            if let share = row.coveredShare { object["coveredShare"] = share }
            return object
        }
        let data = try JSONSerialization.data(withJSONObject: rows, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
