import Foundation
import HealthModel
import HealthQuery

/// The side files a reader's gates have let out: those the admitted objects refer to (a
/// workout route's GPX file, a clinical record's FHIR resource), the ECG files whose recordings
/// were admitted, and the CDA document when the query discloses the whole export.
///
/// `ExportReader.sideFile(_:)` reads only these: a side file belongs to the object that names
/// it, so what the gate hides, its files stay hidden with it, whoever asks for them. Shared by
/// the chunks of a parallel read (their gates record on worker threads), so it is locked.
final class DisclosedSideFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var paths = Set<String>()

    func insert(_ reference: String?) {
        guard let reference, let relative = try? AttachmentPath.resolve(reference) else { return }
        lock.withLock { _ = paths.insert(relative) }
    }

    func contains(_ relative: String) -> Bool { lock.withLock { paths.contains(relative) } }

    /// A sink that notes the files of each object it passes on, placed after a gate.
    func recording(into downstream: any ObjectSink) -> any ObjectSink { Recorder(downstream, into: self) }

    final class Recorder: ObjectSink {
        private let downstream: any ObjectSink
        private let disclosed: DisclosedSideFiles

        init(_ downstream: any ObjectSink, into disclosed: DisclosedSideFiles) {
            self.downstream = downstream
            self.disclosed = disclosed
        }

        func exportDidBegin(_ header: ExportHeader) throws { try downstream.exportDidBegin(header) }

        @inline(__always)
        func consume(_ object: HealthObject) throws {
            switch object {
            case .workout(let workout):
                for route in workout.routes { disclosed.insert(route.fileReference) }
            case .clinicalRecord(let record):
                disclosed.insert(record.resourceFilePath)
            default:
                break
            }
            try downstream.consume(object)
        }
    }
}

extension ExportReader {
    /// A side file named relative to the export folder, when an object a gate of this reader
    /// let through refers to it, or `electrocardiograms(_:…)` or `cdaDocument(for:)` let it
    /// out; `nil` otherwise, as for a file the export lacks (a hidden object's file looks
    /// absent, as the object does).
    ///
    /// - Throws: `ExportError.unsafeMemberPath` for a path leaving the export, `limitExceeded`
    ///   for an oversized file, `malformedArchive` for a damaged zip entry.
    public func sideFile(_ reference: String) throws -> Data? {
        let relative = try AttachmentPath.resolve(reference)
        guard disclosedSideFiles.contains(relative) else { return nil }
        return try attachment(relative)
    }

    /// The CDA document's path (`export_cda.xml`), when the export has one and `query` discloses
    /// the whole export; `sideFile(_:)` then reads it. The CDA document repeats everything the
    /// export holds and cannot be filtered: no selection, and no policy, may have it.
    public func cdaDocument(for query: QueryExecutor) -> String? {
        guard query.disclosure.wholeExport, let path = layout.sideFiles.first(where: { $0.lowercased() == "export_cda.xml" }) else {
            return nil
        }
        disclosedSideFiles.insert(path)
        return path
    }
}
