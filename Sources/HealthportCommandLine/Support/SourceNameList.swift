import Foundation

/// Source names as `--source-priority` takes them, highest priority first: the option may be
/// repeated, and each value is a comma-separated list in which `\,` is a comma within a name and
/// `\\` a backslash. Source names are the person's own and may hold commas ("Smith, John’s
/// iPhone"): split blindly, such a name became two that match nothing, and the wrong source won.
///
/// ```swift
/// SourceNameList.parse(["Smith\\, John’s iPhone,Apple Watch"])  // ["Smith, John’s iPhone", "Apple Watch"]
/// SourceNameList.parse(["Withings", "Health"])                   // ["Withings", "Health"]
/// ```
package enum SourceNameList {
    package static func parse(_ values: [String]) -> [String] {
        var names: [String] = []
        for value in values {
            var current = ""
            var escaped = false
            for character in value {
                if escaped {
                    current.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "," {
                    names.append(current)
                    current = ""
                } else {
                    current.append(character)
                }
            }
            if escaped { current.append("\\") }
            names.append(current)
        }
        return names.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
