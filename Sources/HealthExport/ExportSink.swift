import HealthModel

/// Where `ExportReader` streams what it reads: the header once, then every object in
/// document order. The reader keeps nothing after handing an object over, so a sink that does
/// not keep them either runs in memory that does not grow with the export.
///
/// Errors thrown by the sink stop the read and are rethrown unchanged by `ExportReader.read`
/// (a closed pipe, a full disk).
public protocol ExportSink: AnyObject {
    /// Called once, before the first object (or at the end when there is none).
    func exportDidBegin(_ header: ExportHeader) throws
    /// Called for each top-level object, with its derived uuid set.
    func consume(_ object: HealthObject) throws
}
