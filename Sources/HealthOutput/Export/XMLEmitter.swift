import HealthJSON
import HealthModel

/// Writes Apple's `export.xml` layout by hand into an `OutputBuffer`: one element per line,
/// indented one space per level, childless elements self-closed, attributes in double quotes.
///
/// Escaping covers every character: `&`, `<`, `>` and `"` as entities; tab, newline and
/// carriage return as character references (attribute-value normalization would turn them into
/// spaces otherwise); other characters XML 1.0 forbids become a space (U+FFFE and U+FFFF
/// U+FFFD), as healthport's reader repairs them.
struct XMLEmitter {
    let out: OutputBuffer
    let devices: DeviceDescriptionCache

    init(_ out: OutputBuffer, devices: DeviceDescriptionCache = DeviceDescriptionCache()) {
        self.out = out
        self.devices = devices
    }

    func indent(_ depth: Int) {
        for _ in 0..<depth { out.append(0x20) }
    }

    /// `<name` at `depth`.
    func open(_ name: String, depth: Int) {
        indent(depth)
        out.append(0x3C)
        out.appendRaw(name)
    }

    /// `/>` and a newline.
    func closeEmpty() { out.append("/>\n") }

    /// `>` and a newline, before children.
    func closeStart() { out.append(">\n") }

    /// `</name>` at `depth`.
    func end(_ name: String, depth: Int) {
        indent(depth)
        out.append("</")
        out.appendRaw(name)
        out.append(">\n")
    }

    /// ` name="value"`.
    func attribute(_ name: String, _ value: String) {
        out.append(0x20)
        out.appendRaw(name)
        out.append("=\"")
        escape(value, inAttribute: true)
        out.append(0x22)
    }

    func attribute(_ name: String, _ value: String?) {
        if let value { attribute(name, value) }
    }

    /// A date in the export's form, `yyyy-MM-dd HH:mm:ss ±hhmm`, formatted in the buffer: the
    /// ISO form the JSON writers use has the same length, and is rearranged in place.
    func attribute(_ name: String, _ value: ExportTimestamp?) {
        guard let value else { return }
        out.append(0x20)
        out.appendRaw(name)
        out.append("=\"")
        out.appendISO8601(value)
        let p = out.reserve(0) - ExportTimestamp.iso8601Length
        let sign = p[19]
        let h1 = p[20]
        let h2 = p[21]
        p[10] = 0x20
        p[19] = 0x20
        p[20] = sign
        p[21] = h1
        p[22] = h2
        out.append(0x22)
    }

    /// A device's `HKDevice` description, rendered once per run of samples sharing it.
    func device(_ device: Device) {
        out.append(" device=\"")
        out.append(contentsOf: devices.escapedDescription(of: device, emitter: self))
        out.append(0x22)
    }

    func attribute(_ name: String, _ value: ExportNumber?) {
        if let value { attribute(name, value.text) }
    }

    /// The escaped bytes of an attribute value, for caching.
    func escapedBytes(_ value: String) -> [UInt8] {
        let scratch = XMLEmitter(OutputBuffer(descriptor: -1, capacity: 256))
        scratch.escape(value, inAttribute: true)
        return scratch.out.takeBytes()
    }

    /// Character data.
    func text(_ value: String) { escape(value, inAttribute: false) }

    fileprivate func escape(_ value: String, inAttribute: Bool) {
        var value = value
        value.withUTF8 { bytes in
            var clean = true
            for b in bytes where b == 0x26 || b == 0x3C || b == 0x3E || b == 0x22 || b < 0x20 || b == 0xEF {
                clean = false
                break
            }
            if clean {
                out.append(UnsafeRawBufferPointer(bytes))
                return
            }
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                switch b {
                case 0x26: out.append("&amp;")
                case 0x3C: out.append("&lt;")
                case 0x3E: out.append("&gt;")
                case 0x22 where inAttribute: out.append("&quot;")
                case 0x09: inAttribute ? out.append("&#9;") : out.append(b)
                case 0x0A: inAttribute ? out.append("&#10;") : out.append(b)
                case 0x0D: out.append("&#13;")
                case 0x00..<0x20: out.append(0x20)
                case 0xEF where i + 2 < bytes.count && bytes[i + 1] == 0xBF && (bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF):
                    // U+FFFE, U+FFFF: not characters XML allows.
                    out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                    i += 2
                default: out.append(b)
                }
                i += 1
            }
        }
    }
}

/// The escaped description of the previous sample's device: consecutive samples share one
/// device value (the reader interns them), so the string is built once per run.
final class DeviceDescriptionCache {
    private var device: Device? = nil
    private var bytes: [UInt8] = []

    func escapedDescription(of device: Device, emitter: XMLEmitter) -> [UInt8] {
        if let cached = self.device, cached.storageToken == device.storageToken || cached == device { return bytes }
        self.device = device
        bytes = emitter.escapedBytes(device.descriptionText)
        return bytes
    }
}
