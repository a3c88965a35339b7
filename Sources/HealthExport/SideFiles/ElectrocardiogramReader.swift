import Foundation
import HealthModel

/// Reads an Apple Watch ECG CSV (`electrocardiograms/ecg_….csv`): a key/value header, blank
/// lines, then one voltage per line.
///
/// Tolerates what public files show: header keys in the device's language (English and German
/// spellings are mapped; others are kept out of the typed fields), a sample rate that is not
/// exactly 512 (`512.844 hertz`, `Hz`), quoted values with commas, voltages with a decimal comma
/// and no quotes (`-265,868`), a byte-order mark and CRLF line ends. The data begins at the first
/// line that reads as a number; the name and date of birth in the header are not kept.
public enum ElectrocardiogramReader {
    static let keys: [String: String] = [
        "recorded date": "recorded", "aufzeichnungsdatum": "recorded",
        "classification": "classification", "klassifizierung": "classification",
        "symptoms": "symptoms", "symptome": "symptoms",
        "software version": "software", "softwareversion": "software",
        "device": "device", "gerät": "device",
        "sample rate": "rate", "abtastrate": "rate",
        "lead": "lead", "ableitung": "lead",
        "unit": "unit", "einheit": "unit",
    ]

    static let classifications: [String: Int] = [
        "not set": 0, "sinus rhythm": 1, "sinusrhythmus": 1, "atrial fibrillation": 2, "vorhofflimmern": 2,
        "inconclusive low heart rate": 3, "inconclusive high heart rate": 4, "inconclusive poor recording": 5,
        "inconclusive other": 6, "inconclusive": 6, "unrecognized": 100,
    ]

    /// - Throws: `ExportError.invalidAttribute` naming the file when no voltage is found.
    public static func read(_ data: Data, file: String) throws -> Electrocardiogram {
        var text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var ecg = Electrocardiogram(file: file)
        var inData = false
        var lineNumber = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            let line = rawLine.trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
            if line.isEmpty { continue }
            if let voltage = Self.voltage(line) {
                inData = true
                ecg.voltages.append(voltage)
                continue
            }
            guard !inData else {
                // Where, never what: the line is a recording of the person's heart.
                throw ExportError(
                    .invalidAttribute, "\(file): line \(lineNumber) in the voltage samples is not a number (\(line.count) characters)")
            }
            let fields = Self.fields(line)
            guard fields.count >= 2, let key = Self.keys[fields[0].lowercased()] else { continue }
            let value = fields[1...].joined(separator: ",").trimmingCharacters(in: .whitespaces)
            switch key {
            case "recorded": ecg.recordedDate = ExportTimestamp.parse(value)
            case "classification":
                ecg.classification = value
                ecg.classificationRawValue = classifications[value.lowercased()]
            case "symptoms": ecg.symptoms = value.isEmpty ? nil : value
            case "software": ecg.softwareVersion = value
            case "device": ecg.device = value
            case "rate":
                let number = value.prefix { $0.isNumber || $0 == "." || $0 == "," }.replacingOccurrences(of: ",", with: ".")
                ecg.samplingFrequency = Double(number)
            case "lead": ecg.lead = value
            case "unit": ecg.unit = value
            default: break
            }
        }
        guard !ecg.voltages.isEmpty else {
            throw ExportError(.invalidAttribute, "\(file): no voltage samples")
        }
        return ecg
    }

    /// A voltage: a plain number, or one with a decimal comma (`-265,868`) in comma locales.
    static func voltage(_ line: String) -> Double? {
        if let value = Double(line) { return value }
        let parts = line.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2, let whole = Int(parts[0]), !parts[1].isEmpty, parts[1].allSatisfy(\.isNumber) {
            return Double("\(whole).\(parts[1])").map { line.hasPrefix("-") && whole == 0 ? -abs($0) : $0 }
        }
        return nil
    }

    /// RFC 4180 fields of one line.
    static func fields(_ line: String) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var iterator = Array(line).makeIterator()
        while let c = iterator.next() {
            if quoted {
                if c == "\"" { quoted = false } else { field.append(c) }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                fields.append(field)
                field = ""
            } else {
                field.append(c)
            }
        }
        fields.append(field)
        return fields
    }
}
