import Foundation
import HealthModel

/// Reads a workout route's GPX file (GPX 1.1 as the exporter writes it: one `trkpt` per
/// location, `lat`/`lon` attributes in either order, `ele`, `time` and Apple's `extensions`
/// — `speed`, `course`, `hAcc`, `vAcc` — in the GPX default namespace) with the same hardened
/// libxml2 path as `export.xml`.
public enum GPXReader {
    /// The points of one GPX document.
    ///
    /// - Throws: `ExportError` naming `file` and the position when the GPX is malformed.
    public static func points(in data: Data, file: SourceLocation) throws -> [RoutePoint] {
        let handler = Handler()
        try XMLDocument.parse(data, handler: handler, roots: ["gpx"], file: file)
        if let error = handler.error { throw error }
        return handler.points
    }

    final class Handler: ElementEventHandler {
        var points: [RoutePoint] = []
        var current: RoutePoint? = nil
        var field: String? = nil
        var text = ""
        var error: ExportError? = nil
        static let fields: Set<String> = ["ele", "time", "speed", "course", "hAcc", "vAcc"]
        static let maximumPoints = 10_000_000

        var wantsCharacters: Bool { field != nil }

        func startElement(_ name: ElementName, _ attributes: AttributeView, _ parser: any ElementEventSource) {
            if name.equals("trkpt") {
                var latitude: ExportNumber? = nil
                var longitude: ExportNumber? = nil
                for i in 0..<attributes.count {
                    if matches(attributes.name(i), "lat") { latitude = ExportNumber.parse(attributes.value(i)) }
                    if matches(attributes.name(i), "lon") { longitude = ExportNumber.parse(attributes.value(i)) }
                }
                guard let latitude, let longitude else {
                    parser.stop(with: ExportError(.invalidAttribute, "a <trkpt> without a valid lat and lon"))
                    return
                }
                current = RoutePoint(latitude: latitude, longitude: longitude)
            } else if current != nil, Self.fields.contains(name.string) {
                field = name.string
                text = ""
            }
        }

        func endElement(_ name: ElementName, _ parser: any ElementEventSource) {
            if let field, name.string == field {
                let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
                switch field {
                case "time": current?.time = ExportTimestamp.parse(value)
                case "ele": current?.elevation = ExportNumber.parse(value)
                case "speed": current?.speed = ExportNumber.parse(value)
                case "course": current?.course = ExportNumber.parse(value)
                case "hAcc": current?.horizontalAccuracy = ExportNumber.parse(value)
                case "vAcc": current?.verticalAccuracy = ExportNumber.parse(value)
                default: break
                }
                self.field = nil
            } else if name.equals("trkpt"), let point = current {
                current = nil
                guard points.count < Self.maximumPoints else {
                    parser.stop(with: ExportError(.limitExceeded, "more than \(Self.maximumPoints) route points"))
                    return
                }
                points.append(point)
            }
        }

        func characters(_ bytes: UnsafeRawBufferPointer, _ parser: any ElementEventSource) {
            if text.utf8.count < 4096 { text += String(decoding: bytes, as: UTF8.self) }
        }
    }
}

/// Parses a whole small XML document (a side file) through the pre-filter and libxml2.
enum XMLDocument {
    static func parse(_ data: Data, handler: any ElementEventHandler, roots: Set<String>, file: SourceLocation) throws {
        let parser = SAXParser(handler: handler)
        var filter = XMLPreFilter()
        filter.otherRoots = roots
        do {
            try data.withUnsafeBytes { bytes in
                try filter.process(bytes, isLast: true) { ready, _ in try parser.feed(ready) }
            }
            try parser.finish()
            if let error = parser.pendingError { throw error }
        } catch let error as XMLSyntaxError {
            throw ExportError(.malformedXML, error.explained, at: file.with(line: error.line, column: error.column))
        } catch var error as ExportError {
            if error.location == nil { error.location = file }
            throw error
        }
    }
}
