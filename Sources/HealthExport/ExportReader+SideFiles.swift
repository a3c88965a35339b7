import Foundation
import HealthModel

/// The side files beside the document (routes, ECGs, FHIR resources, the CDA document), read
/// by their path relative to the export folder, never outside it.
extension ExportReader {
    /// The largest side file read whole (GPX, ECG CSV, FHIR JSON are kilobytes to a few MB).
    public static let maximumAttachmentSize = 256 << 20

    /// Reads a side file named relative to the export folder (`workout-routes/route_….gpx`).
    ///
    /// - Returns: `nil` when the export has no such file (or is a bare XML with nothing beside it).
    /// - Throws: `ExportError.unsafeMemberPath` for a path leaving the export, `limitExceeded` for
    ///   an oversized file, `malformedArchive` for a damaged zip entry.
    ///
    /// Safe to call from any thread: reads are serialised, as a zip archive has one file position
    /// (a parallel read's workers read FHIR resources while the caller reads routes).
    ///
    /// Ungated: internal to this module (the clinical type resolver, the ECG reading); outside,
    /// a side file is read through `sideFile(_:)`, which checks that a gate let it out.
    func attachment(_ reference: String) throws -> Data? {
        attachmentLock.lock()
        defer { attachmentLock.unlock() }
        return try readAttachment(reference)
    }

    private func readAttachment(_ reference: String) throws -> Data? {
        let relative = try AttachmentPath.resolve(reference)
        guard layout.sideFiles.contains(relative) else { return nil }
        let fullPath = layout.exportRoot.isEmpty ? relative : layout.exportRoot + "/" + relative
        switch source {
        case .zip:
            guard let sideFiles = zipSideFiles, let entry = sideFiles[fullPath] else { return nil }
            let location = SourceLocation(file: input.displayName, member: fullPath)
            try Self.checkExpansion(
                member: fullPath, compressedSize: entry.compressedSize, uncompressedSize: entry.uncompressedSize, displayName: input.displayName,
                ratio: maximumExpansion)
            guard entry.uncompressedSize <= UInt64(Self.maximumAttachmentSize) else {
                throw ExportError(.limitExceeded, "\(relative) is larger than \(Self.maximumAttachmentSize >> 20) MiB", at: location)
            }
            var data = Data()
            // The declared size is a stranger's word: reserved up to a chunk, grown as it inflates.
            data.reserveCapacity(Int(min(entry.uncompressedSize, UInt64(Self.chunkSize))))
            try sideFiles.stream(entry, chunkSize: Self.chunkSize, location: location) { data.append(contentsOf: $0) }
            return data
        case .file(let documentPath):
            let folder = URL(fileURLWithPath: documentPath).deletingLastPathComponent()
            let url = folder.appendingPathComponent(relative)
            // Symlinks leading out of the export are refused too.
            let resolved = url.resolvingSymlinksInPath().path
            guard resolved.hasPrefix(folder.resolvingSymlinksInPath().path + "/") else {
                throw ExportError(.unsafeMemberPath, "refused \(relative): it links outside the export")
            }
            let size = FileSize.of(resolved).map { Int(clamping: $0) } ?? 0
            guard size <= Self.maximumAttachmentSize else {
                throw ExportError(.limitExceeded, "\(relative) is larger than \(Self.maximumAttachmentSize >> 20) MiB")
            }
            return FileManager.default.contents(atPath: resolved)
        case .standardInputXML, .ndjsonFile, .standardInputNDJSON, .cutOffZip, .documentBytes, .healthConnect:
            return nil
        }
    }

    /// Reads Observations' categories from their FHIR resources, when the export holds any
    /// (`nil` for a bare document).
    func makeClinicalTypeResolver() -> ClinicalTypeResolver? {
        guard layout.sideFiles.contains(where: { $0.hasPrefix("clinical-records/") }) else { return nil }
        return ClinicalTypeResolver { [self] reference in try self.attachment(reference) }
    }

    /// Streams a side file in chunks (for large ones such as `export_cda.xml`).
    func streamAttachment(_ reference: String, _ body: (UnsafeRawBufferPointer, Bool) throws -> Void) throws {
        let relative = try AttachmentPath.resolve(reference)
        guard layout.sideFiles.contains(relative) else { return }
        let fullPath = layout.exportRoot.isEmpty ? relative : layout.exportRoot + "/" + relative
        switch source {
        case .zip:
            guard let sideFiles = zipSideFiles, let entry = sideFiles[fullPath] else { return }
            try Self.checkExpansion(
                member: fullPath, compressedSize: entry.compressedSize, uncompressedSize: entry.uncompressedSize, displayName: input.displayName,
                ratio: maximumExpansion)
            try sideFiles.stream(entry, chunkSize: Self.chunkSize, location: SourceLocation(file: input.displayName, member: fullPath)) {
                try body($0, false)
            }
            try body(UnsafeRawBufferPointer(start: nil, count: 0), true)
        case .file(let documentPath):
            let path = URL(fileURLWithPath: documentPath).deletingLastPathComponent().appendingPathComponent(relative).path
            guard let file = FileByteSource.open(path: path) else { return }
            try stream(file, prefix: []) { bytes, isLast in try body(bytes, isLast) }
        case .standardInputXML, .ndjsonFile, .standardInputNDJSON, .cutOffZip, .documentBytes, .healthConnect:
            return
        }
    }
}
