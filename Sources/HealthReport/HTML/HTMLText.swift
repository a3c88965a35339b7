import HealthJSON
import HealthOutput

/// Text into an HTML document, escaped: every string that came from an export (a source name,
/// a device, a workout type, a warning) is hostile input, and inside a page a `<script>` in a
/// source name would run in the reader's browser.
public enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` as character references: safe in element content
    /// and in quoted attribute values alike. Control characters other than tab and newline,
    /// which HTML forbids, become U+FFFD.
    public static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 || ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A) || $0 == 0x7F })
        else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}

/// The document being written: markup appended to an output buffer that is flushed as it
/// fills, so a report of many megabytes is never held whole in memory.
final class HTMLWriter {
    let out: OutputBuffer

    init(_ out: OutputBuffer) { self.out = out }

    /// Markup written by healthport itself, as it is.
    func raw(_ markup: String) { out.appendRaw(markup) }

    /// Text from the export, escaped.
    func text(_ text: String) { out.appendRaw(HTMLText.escape(text)) }

    /// An element whose content is `text`, escaped.
    func element(_ name: String, _ text: String, attributes: String = "") {
        raw("<\(name)\(attributes.isEmpty ? "" : " " + attributes)>")
        self.text(text)
        raw("</\(name)>")
    }

    /// Flushes when the buffer is past its threshold.
    func flushIfNeeded() throws { try out.endRecord() }
}
