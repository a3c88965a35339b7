import HealthModel

/// An export as an `ObjectSource`: what the store's import, and any consumer that does not
/// know about readers, takes. It reads once, with the options it was made with, and keeps the
/// read's summary (warnings, header, salvage stop) for the caller afterwards.
public final class ExportObjectSource: ObjectSource {
    public let reader: ExportReader
    private let warning: (ExportWarning) -> Void
    private let progress: ((ExportReader.Progress) -> Void)?
    private let types: Set<String>?
    private let salvage: Bool
    /// The read's summary, once `stream(into:)` has returned.
    public private(set) var summary: ExportReader.Summary?

    public init(
        _ reader: ExportReader, warning: @escaping (ExportWarning) -> Void = { _ in },
        progress: ((ExportReader.Progress) -> Void)? = nil, types: Set<String>? = nil, salvage: Bool = false
    ) {
        self.reader = reader
        self.warning = warning
        self.progress = progress
        self.types = types
        self.salvage = salvage
    }

    public func stream(into sink: any ObjectSink) throws {
        summary = try reader.read(into: sink, warning: warning, progress: progress, types: types, salvage: salvage)
    }
}
