import Foundation

/// An ECG CSV as a consumer may receive it: its header without the person's name and, unless
/// the consumer sees it, the date of birth, the recording itself untouched.
///
/// Apple's ECG files begin with `Name,…` and `Date of Birth,…` before the recording's own
/// fields. `convert --format export --output X.zip` carries ECG files into the archive; copied
/// as they were, a consumer granted ECGs but not the date of birth received both (the policy
/// never grants a name: HealthKit has no such type).
///
/// The header is filtered by what is known to be safe, not by what is known to be personal:
/// a line is kept when its key is one of the recording's own fields (`ElectrocardiogramReader`'s
/// English and German keys), or the date of birth when it may be kept; every other header line
/// (the name, and any key in a language healthport does not know, which could be a name) goes.
/// Blank lines, the voltages and the line ends are kept byte for byte.
public enum ElectrocardiogramFileRedaction {
    /// The keys of the date of birth, lowercased, as the files spell them.
    static let dateOfBirthKeys: Set<String> = ["date of birth", "geburtsdatum"]

    /// - Parameters:
    ///   - data: the CSV file as the export holds it.
    ///   - keepingDateOfBirth: whether the consumer sees the date of birth
    ///     (`QueryExecutor.admitsCharacteristic`).
    /// - Returns: the file without the header lines the consumer may not see.
    public static func redacting(_ data: Data, keepingDateOfBirth: Bool) -> Data {
        var output = Data(capacity: data.count)
        var inData = false
        var start = data.startIndex
        while start < data.endIndex {
            let newline = data[start...].firstIndex(of: UInt8(ascii: "\n"))
            let end = newline.map { data.index(after: $0) } ?? data.endIndex
            let line = data[start..<end]
            start = end
            if inData {
                output.append(line)
                continue
            }
            var text = String(decoding: line, as: UTF8.self)
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            let content = text.trimmingCharacters(in: CharacterSet(charactersIn: "\r\n"))
            if content.isEmpty {
                output.append(line)
                continue
            }
            if ElectrocardiogramReader.voltage(content) != nil {
                inData = true
                output.append(line)
                continue
            }
            let key = ElectrocardiogramReader.fields(content).first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            if ElectrocardiogramReader.keys[key] != nil || (keepingDateOfBirth && dateOfBirthKeys.contains(key)) {
                output.append(line)
            } else if line.starts(with: [0xEF, 0xBB, 0xBF]) {
                // The byte-order mark stays at the start of the file.
                output.append(contentsOf: [0xEF, 0xBB, 0xBF])
            }
        }
        return output
    }
}
