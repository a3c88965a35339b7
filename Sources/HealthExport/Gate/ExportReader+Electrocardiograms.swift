import Foundation
import HealthModel
import HealthQuery

extension ExportReader {
    /// The export's ECG recordings (`electrocardiograms/*.csv`, which the document does not list)
    /// that `query` admits, each read from its file, with its uuid derived from its content as
    /// every object's is, through the query's gate. Their files are then disclosed
    /// (`sideFile(_:)`).
    ///
    /// - Parameters:
    ///   - warning: a file that cannot be read (a warning, not an error: the others are read).
    ///   - body: each admitted recording and its file, in the export's order.
    /// - Throws: `ExportError.unsafeMemberPath`, or what `body` throws.
    public func electrocardiograms(
        _ query: QueryExecutor, warning: (ExportError) -> Void, _ body: (_ file: String, _ recording: Electrocardiogram) throws -> Void
    ) throws {
        let gate = QueryGate(query, into: DiscardingSink())
        var encoder = CanonicalEncoder()
        for file in layout.sideFiles where file.hasPrefix("electrocardiograms/") && file.lowercased().hasSuffix(".csv") {
            do {
                guard let data = try attachment(file) else { continue }
                var ecg = try ElectrocardiogramReader.read(data, file: file)
                ecg.uuid = ObjectIdentity.uuid(of: .electrocardiogram(ecg), encoder: &encoder)
                guard case .electrocardiogram(let visible)? = try gate.visible(.electrocardiogram(ecg)) else { continue }
                disclosedSideFiles.insert(file)
                try body(file, visible)
            } catch let error as ExportError where error.code != .unsafeMemberPath {
                warning(error)
            }
        }
    }
}

/// The gate's downstream when objects are taken one at a time (`QueryGate.visible`).
final class DiscardingSink: ObjectSink {
    func exportDidBegin(_ header: ExportHeader) throws {}
    func consume(_ object: HealthObject) throws {}
}
