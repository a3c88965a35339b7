import Foundation
import HealthExport
import HealthModel
import HealthQuery
import HealthStore

/// What an export or the store holds, as a value (`healthport info`): where it is, its dates,
/// counts per type, sources, devices, side files and the quirks met; rendered as text or JSON.
///
/// Under an authorization policy it describes only what the consumer may read: the counts of
/// the objects that pass the gate, the characteristics granted, the side files of those
/// objects; the document's size, the reader's warnings, what was passed through and the CDA
/// document (which holds everything) are left out, since each tells something of the rest.
public struct ExportInfo: Sendable {
    public struct SideFiles: Codable, Sendable {
        public var workoutRoutes = 0
        public var electrocardiograms = 0
        public var clinicalRecords = 0
        public var cdaDocument = false
        public var other: [String] = []
        public var missingRouteFiles: [String] = []
        public var missingClinicalRecordFiles: [String] = []
    }

    public struct Warning: Codable, Sendable {
        public var message: String
        public var location: String?
        public var count: Int
    }

    /// Which parser read the document's body (`--parser`), and where libxml2 took over from
    /// healthport's scanner, if it did: the first thing to look at when an export reads slowly.
    public struct Parser: Codable, Sendable, Equatable {
        /// `scanner` or `libxml2`: the parser asked for.
        public var name: String
        /// Top-level elements the scanner read (with the scanner).
        public var scannedElements: Int?
        /// Where libxml2 read the rest of the body, and why (with the scanner, when it did).
        public var libxml2From: Handover?

        public struct Handover: Codable, Sendable, Equatable {
            /// The line libxml2 took over at (`nil` for a fragment, libxml2's from its start).
            public var line: Int?
            public var reason: String
        }

        init?(reader: ExportReader, summary: ExportReader.Summary) {
            // NDJSON and a Health Connect database are not XML: no parser to tell of.
            guard reader.layout.container != .ndjson, reader.layout.container != .healthConnect else { return nil }
            let parsing = summary.parsing
            name = parsing.requested.rawValue
            guard parsing.requested == .scanner else { return }
            scannedElements = parsing.scannedElements
            if summary.isFragment {
                libxml2From = Handover(line: nil, reason: "fragment")
            } else if parsing.fellBack {
                libxml2From = Handover(line: parsing.handover?.line, reason: parsing.handover?.reason ?? "prolog")
            }
        }

        /// The reason in words.
        var explanation: String {
            switch libxml2From?.reason {
            case "fragment": return "a fragment, without the HealthData root"
            case "endOfInput": return "the input ends inside the body"
            case "markup": return "a comment, processing instruction or CDATA section"
            case "text": return "text, or white space such as a carriage return"
            case "name": return "a namespace prefix or a non-ASCII name"
            case "attributeValue": return "an attribute value with an entity or character the scanner leaves to libxml2"
            case "malformed": return "XML that is not well-formed"
            case "limit": return "an element beyond the scanner's bounds"
            case let other?: return other
            case nil: return ""
            }
        }
    }

    public struct Document: Codable, Sendable {
        public var input: String
        public var container: String
        public var documentPath: String?
        public var documentSize: Int64?
        public var exportDate: String?
        public var locale: String?
        public var exportVersion: Int?
        public var isFragment: Bool
        public var characteristics: [String: String]
        public var objectCount: Int
        public var types: [ExportInventory.TypeEntry]
        public var sources: [ExportInventory.SourceEntry]
        public var devices: [ExportInventory.DeviceEntry]
        public var sideFiles: SideFiles?
        public var passedThrough: [String: Int]
        public var replacedByteCount: Int
        public var warnings: [Warning]
        public var cda: CDAReader.Summary? = nil
        /// Which parser read the body (absent under a policy, and for healthport's NDJSON).
        public var parser: Parser? = nil
        /// A store's layout and summary rules (absent for an export).
        public var store: StoreFormat? = nil
        /// A store's imports per phone (`StorePlatformImports`): the owner's only, absent under a
        /// policy and for an export.
        public var imports: [StorePlatformImports]? = nil
    }

    public var document: Document
    /// Per type, what the export covers (`InventoryRun.includeCoverage`); `nil` when not asked.
    public var coverage: [TypeCoverage]? = nil

    /// - Parameter header: the header as the consumer may see it (through the gate), not the
    ///   reader's own.
    init(
        reader: ExportReader, summary: ExportReader.Summary, header: ExportHeader, inventory: ExportInventory, disclosure: Disclosure,
        electrocardiograms: Int?
    ) {
        let facts = disclosure.exportFacts
        let characteristics = Self.characteristics(of: header)
        var sideFiles: SideFiles? = nil
        let layout = reader.layout
        func relative(_ reference: String) -> String {
            String(reference.drop(while: { $0 == "/" }))
        }
        if layout.container != .xml || !layout.sideFiles.isEmpty {
            var files = SideFiles()
            let present = Set(layout.sideFiles)
            if !disclosure.wholeExport {
                // Only the side files of what the consumer may read, or of the types selected.
                files.workoutRoutes = Set(inventory.routeFileReferences.map(relative)).filter(present.contains).count
                files.clinicalRecords = Set(inventory.clinicalResourcePaths.map(relative)).filter(present.contains).count
                files.electrocardiograms = electrocardiograms ?? 0
            } else {
                for path in layout.sideFiles {
                    if path.hasPrefix("workout-routes/") {
                        files.workoutRoutes += 1
                    } else if path.hasPrefix("electrocardiograms/") {
                        files.electrocardiograms += 1
                    } else if path.hasPrefix("clinical-records/") {
                        files.clinicalRecords += 1
                    } else if path.lowercased() == "export_cda.xml" {
                        files.cdaDocument = true
                    } else if files.other.count < 100 {
                        files.other.append(path)
                    }
                }
            }
            files.missingRouteFiles = inventory.routeFileReferences.map(relative).filter { !present.contains($0) }
            files.missingClinicalRecordFiles = inventory.clinicalResourcePaths.map(relative).filter { !present.contains($0) }
            sideFiles = files
        }
        document = Document(
            input: reader.input.displayName, container: layout.container.rawValue, documentPath: layout.documentPath,
            documentSize: facts ? layout.documentSize : nil, exportDate: header.exportDate?.iso8601,
            locale: header.locale, exportVersion: header.exportVersion, isFragment: summary.isFragment,
            characteristics: characteristics, objectCount: inventory.objectCount, types: inventory.types,
            sources: inventory.sources, devices: inventory.devices, sideFiles: sideFiles,
            passedThrough: facts ? summary.passedThrough : [:], replacedByteCount: facts ? summary.replacedByteCount : 0,
            warnings: facts
                ? summary.warnings.map {
                    Warning(message: $0.warning.message, location: $0.warning.location?.description, count: $0.count)
                } : [])
        // Where libxml2 took over tells something of the document: left out under a policy.
        if facts { document.parser = Parser(reader: reader, summary: summary) }
    }

    /// The header's characteristics by name (what the gate let through).
    static func characteristics(of header: ExportHeader) -> [String: String] {
        var characteristics: [String: String] = [:]
        if let me = header.characteristics {
            for field in Characteristics.fields { characteristics[field.name] = me[keyPath: field.keyPath] }
            for other in me.other { characteristics[other.name] = other.value }
        }
        return characteristics
    }

    /// What the store holds, as the query sees it: its latest import's header (through the
    /// gate) and the objects' inventory. A store keeps no document, side files or reader's
    /// warnings: those parts are empty.
    init(store path: String, format: StoreFormat, header: ExportHeader, inventory: ExportInventory) {
        document = Document(
            input: path, container: "store", documentPath: nil, documentSize: nil, exportDate: header.exportDate?.iso8601,
            locale: header.locale, exportVersion: header.exportVersion, isFragment: false,
            characteristics: Self.characteristics(of: header), objectCount: inventory.objectCount, types: inventory.types,
            sources: inventory.sources, devices: inventory.devices, sideFiles: nil, passedThrough: [:], replacedByteCount: 0,
            warnings: [], store: format)
    }

    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }

    public func text() -> String {
        var lines: [String] = []
        let d = document
        lines.append("Input:          \(d.input) (\(d.container))")
        if let store = d.store { lines.append("Store layout:   \(store.text)") }
        if let imports = d.imports, !imports.isEmpty { lines.append("Imports:        \(imports.map(\.text).joined(separator: "; "))") }
        if let path = d.documentPath { lines.append("Document:       \(path)") }
        if let size = d.documentSize { lines.append("Size:           \(ByteCount.text(size))") }
        lines.append("Export date:    \(d.exportDate ?? "-")")
        lines.append("Locale:         \(d.locale ?? "-")")
        // Apple's DTD version; a Health Connect database has no DTD to have one.
        if d.container != ExportLayout.Container.healthConnect.rawValue {
            lines.append("Export version: \(d.exportVersion.map(String.init) ?? "- (no DTD)")")
        }
        if let parser = d.parser {
            if let handover = parser.libxml2From {
                let from = handover.line.map { " from line \($0)" } ?? ""
                lines.append("Parser:         \(parser.name), then libxml2\(from) (\(parser.explanation))")
            } else {
                lines.append("Parser:         \(parser.name)")
            }
        }
        if d.isFragment { lines.append("Fragment:       yes (no <HealthData> root)") }
        if !d.characteristics.isEmpty {
            lines.append("Characteristics:")
            for key in d.characteristics.keys.sorted() { lines.append("  \(key): \(d.characteristics[key]!)") }
        }
        lines.append("Objects:        \(d.objectCount)")
        lines.append("")
        let typeWidth = max(4, d.types.map(\.type.count).max() ?? 4)
        lines.append(pad("TYPE", typeWidth) + "  " + pad("COUNT", 9, right: true) + "  FIRST                      LAST")
        for t in d.types {
            lines.append(
                pad(t.type, typeWidth) + "  " + pad(String(t.count), 9, right: true) + "  "
                    + pad(t.firstStartDate ?? "-", 25) + "  " + (t.lastStartDate ?? "-"))
        }
        lines.append("")
        lines.append("Sources:")
        for s in d.sources { lines.append("  \(pad(String(s.count), 9, right: true))  \(s.name)") }
        if !d.devices.isEmpty {
            lines.append("Devices:")
            for device in d.devices {
                let name = device.description ?? [device.name, device.manufacturer, device.model, device.hardwareVersion]
                    .compactMap { $0 }.joined(separator: ", ")
                lines.append("  \(pad(String(device.count), 9, right: true))  \(name)")
            }
        }
        if let files = d.sideFiles {
            lines.append("Side files:")
            lines.append("  workout routes (GPX):      \(files.workoutRoutes)")
            lines.append("  electrocardiograms (CSV):  \(files.electrocardiograms)")
            lines.append("  clinical records (FHIR):   \(files.clinicalRecords)")
            lines.append("  CDA document:              \(files.cdaDocument ? "yes" : "no")")
            if !files.other.isEmpty { lines.append("  other:                     \(files.other.joined(separator: ", "))") }
            if !files.missingRouteFiles.isEmpty {
                lines.append("  missing route files:       \(files.missingRouteFiles.count)")
            }
            if !files.missingClinicalRecordFiles.isEmpty {
                lines.append("  missing clinical files:    \(files.missingClinicalRecordFiles.count)")
            }
        } else {
            lines.append("Side files:     - (bare XML: none beside it)")
        }
        if !d.passedThrough.isEmpty {
            lines.append("Passed through (not in healthport's model):")
            for key in d.passedThrough.keys.sorted() { lines.append("  \(pad(String(d.passedThrough[key]!), 9, right: true))  \(key)") }
        }
        if let cda = d.cda {
            lines.append("CDA document:   \(cda.observations) observations")
            for type in cda.byType.keys.sorted() { lines.append("  \(pad(String(cda.byType[type]!), 9, right: true))  \(type)") }
        }
        if d.replacedByteCount > 0 { lines.append("Replaced bytes: \(d.replacedByteCount) (characters XML forbids)") }
        if !d.warnings.isEmpty {
            lines.append("Warnings:")
            for w in d.warnings {
                lines.append("  \(w.location.map { "\($0): " } ?? "")\(w.message)\(w.count > 1 ? " (\(w.count) times)" : "")")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
