import ArgumentParser
import Foundation
import HealthExport
import HealthModel
import HealthQuery

extension Healthport {
    /// `healthport info`: what an export holds.
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Describe an export: dates, counts per type, sources, devices, side files, quirks.",
            discussion: "A table on standard output, or one JSON document with --format json. See healthport-info(1).")

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case text, json
        }

        @OptionGroup var input: InputOptions

        @Option(name: .shortAndLong, help: "Output format: text (default) or json.")
        var format: Format = .text

        @Flag(name: .long, help: "Also read export_cda.xml and count its observations by type (it can be gigabytes).")
        var cda = false

        @OptionGroup var diagnostics: DiagnosticOptions

        func run() throws {
            let log = Diagnostics(quiet: diagnostics.quiet)
            try log.run {
                let reader = try ExportReader.open(input.export)
                let collector = InventorySink()
                let progress = ProgressLine(forced: diagnostics.progress, quiet: diagnostics.quiet)
                var warnings: [ExportWarning] = []
                let summary = try reader.read(
                    into: collector,
                    warning: { warning in
                        warnings.append(warning)
                    }, progress: { value in
                        progress.objects = collector.inventory.objectCount
                        progress.update(value)
                    })
                progress.clear()
                var inventory = collector.inventory
                inventory.sort()
                var report = InfoReport(reader: reader, summary: summary, inventory: inventory)
                if cda { report.document.cda = try CDAReader.summarize(reader) }
                let text = format == .json ? try report.json() : report.text()
                FileHandle.standardOutput.write(Data(text.utf8))
            }
        }
    }
}

final class InventorySink: ObjectSink {
    var inventory = ExportInventory()
    func exportDidBegin(_ header: ExportHeader) throws {}
    func consume(_ object: HealthObject) throws { inventory.add(object) }
}

/// The `info` report, in both its forms.
struct InfoReport {
    struct SideFiles: Codable {
        var workoutRoutes = 0
        var electrocardiograms = 0
        var clinicalRecords = 0
        var cdaDocument = false
        var other: [String] = []
        var missingRouteFiles: [String] = []
        var missingClinicalRecordFiles: [String] = []
    }

    struct Warning: Codable {
        var message: String
        var location: String?
        var count: Int
    }

    struct Document: Codable {
        var input: String
        var container: String
        var documentPath: String?
        var documentSize: Int64?
        var exportDate: String?
        var locale: String?
        var exportVersion: Int?
        var isFragment: Bool
        var characteristics: [String: String]
        var objectCount: Int
        var types: [ExportInventory.TypeEntry]
        var sources: [ExportInventory.SourceEntry]
        var devices: [ExportInventory.DeviceEntry]
        var sideFiles: SideFiles?
        var passedThrough: [String: Int]
        var replacedByteCount: Int
        var warnings: [Warning]
        var cda: CDAReader.Summary? = nil
    }

    var document: Document

    init(reader: ExportReader, summary: ExportReader.Summary, inventory: ExportInventory) {
        var characteristics: [String: String] = [:]
        if let me = summary.header.characteristics {
            characteristics["dateOfBirth"] = me.dateOfBirth
            characteristics["biologicalSex"] = me.biologicalSex
            characteristics["bloodType"] = me.bloodType
            characteristics["fitzpatrickSkinType"] = me.fitzpatrickSkinType
            characteristics["cardioFitnessMedicationsUse"] = me.cardioFitnessMedicationsUse
            for other in me.other { characteristics[other.name] = other.value }
        }
        var sideFiles: SideFiles? = nil
        let layout = reader.layout
        if layout.container != .xml || !layout.sideFiles.isEmpty {
            var files = SideFiles()
            let present = Set(layout.sideFiles)
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
            func relative(_ reference: String) -> String {
                String(reference.drop(while: { $0 == "/" }))
            }
            files.missingRouteFiles = inventory.routeFileReferences.map(relative).filter { !present.contains($0) }
            files.missingClinicalRecordFiles = inventory.clinicalResourcePaths.map(relative).filter { !present.contains($0) }
            sideFiles = files
        }
        document = Document(
            input: reader.input.displayName, container: layout.container.rawValue, documentPath: layout.documentPath,
            documentSize: layout.documentSize, exportDate: summary.header.exportDate?.iso8601,
            locale: summary.header.locale, exportVersion: summary.header.exportVersion, isFragment: summary.isFragment,
            characteristics: characteristics, objectCount: inventory.objectCount, types: inventory.types,
            sources: inventory.sources, devices: inventory.devices, sideFiles: sideFiles,
            passedThrough: summary.passedThrough, replacedByteCount: summary.replacedByteCount,
            warnings: summary.warnings.map {
                Warning(message: $0.warning.message, location: $0.warning.location?.description, count: $0.count)
            })
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }

    func text() -> String {
        var lines: [String] = []
        let d = document
        lines.append("Input:          \(d.input) (\(d.container))")
        if let path = d.documentPath { lines.append("Document:       \(path)") }
        if let size = d.documentSize { lines.append("Size:           \(ProgressLine.bytes(size))") }
        lines.append("Export date:    \(d.exportDate ?? "-")")
        lines.append("Locale:         \(d.locale ?? "-")")
        lines.append("Export version: \(d.exportVersion.map(String.init) ?? "- (no DTD)")")
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
