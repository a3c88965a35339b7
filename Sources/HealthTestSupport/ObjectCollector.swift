import HealthExport
import HealthModel
import HealthQuery

/// A sink that keeps every object read, for tests (real sinks keep nothing).
public final class ObjectCollector: ObjectSink {
    public private(set) var header = ExportHeader()
    public private(set) var objects: [HealthObject] = []

    public init() {}

    public func exportDidBegin(_ header: ExportHeader) throws { self.header = header }
    public func consume(_ object: HealthObject) throws { objects.append(object) }

    /// Reads an export whole.
    public static func read(_ path: String) throws -> ObjectCollector {
        let collector = ObjectCollector()
        _ = try ExportReader(.path(path)).read(.everything, into: collector)
        return collector
    }
}
