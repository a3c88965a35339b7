import Foundation
import HealthModel
import HealthQuery

/// Counts the observations of `export_cda.xml` (an HL7 CDA document repeating part of the export
/// in a verbose form, up to gigabytes), by the HealthKit type each names, streaming it through
/// the hardened libxml2 reader. Reading stops cleanly at the root's end, so content after it (seen
/// in 2020 exports) does not matter.
public enum CDAReader {
    public struct Summary: Sendable, Codable {
        public var observations = 0
        /// Observations per HealthKit type identifier (`<type>` inside the observation's text).
        public var byType: [String: Int] = [:]
    }

    final class Handler: ElementEventHandler {
        var summary = Summary()
        var depthInObservation = 0
        var readingType = false
        var text = ""
        var wantsCharacters: Bool { readingType }

        func startElement(_ name: ElementName, _ attributes: AttributeView, _ parser: any ElementEventSource) {
            if name.equals("observation") {
                depthInObservation += 1
                if depthInObservation == 1 { summary.observations += 1 }
            } else if depthInObservation > 0 && name.equals("type") {
                readingType = true
                text = ""
            }
        }

        func endElement(_ name: ElementName, _ parser: any ElementEventSource) {
            if readingType && name.equals("type") {
                readingType = false
                let type = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if !type.isEmpty && summary.byType.count < 10_000 { summary.byType[type, default: 0] += 1 }
            } else if name.equals("observation") {
                depthInObservation = max(0, depthInObservation - 1)
            } else if name.equals("ClinicalDocument") {
                parser.stop(with: CDAEnd())
            }
        }

        func characters(_ bytes: UnsafeRawBufferPointer, _ parser: any ElementEventSource) {
            if text.utf8.count < 256 { text += String(decoding: bytes, as: UTF8.self) }
        }
    }

    struct CDAEnd: Error {}

    /// Streams the CDA document of an export, when `query` may have it
    /// (`ExportReader.cdaDocument(for:)`: the owner, selecting nothing).
    ///
    /// - Returns: `nil` when the export has none, or the query may not have it.
    public static func summarize(_ reader: ExportReader, query: QueryExecutor) throws -> Summary? {
        guard reader.cdaDocument(for: query) == "export_cda.xml" else { return nil }
        let handler = Handler()
        let parser = SAXParser(handler: handler)
        var filter = XMLPreFilter()
        filter.otherRoots = ["ClinicalDocument"]
        let location = SourceLocation(file: reader.input.displayName, member: "export_cda.xml")
        do {
            try reader.streamAttachment("export_cda.xml") { chunk, isLast in
                try filter.process(chunk, isLast: isLast) { ready, _ in try parser.feed(ready) }
            }
            try parser.finish()
        } catch is CDAEnd {
        } catch let error as XMLSyntaxError {
            if parser.pendingError is CDAEnd { return handler.summary }
            throw ExportError(.malformedXML, error.explained, at: location.with(line: error.line, column: error.column))
        } catch var error as ExportError {
            if error.location == nil { error.location = location }
            throw error
        }
        return handler.summary
    }
}
