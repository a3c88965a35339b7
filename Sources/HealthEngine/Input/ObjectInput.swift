import HealthExport
import HealthStore

/// Where a run reads objects: an export (streamed), or the store (through its SQL prefilter).
public enum ObjectInput: Sendable, Equatable {
    /// A zip, the unzipped folder, export.xml, healthport's NDJSON, or `-` for standard input.
    case export(String)
    /// The store at this path.
    case store(String)

    /// Checks that the store or the export exists and can be opened, before a long-running
    /// face (a server) starts serving it.
    public func checkOpens(reading: ReadOptions = ReadOptions()) throws(RunError) {
        try RunError.wrapping { _ = try OpenedInput(self, reading: reading) }
    }

    /// The export's or the store's path.
    public var path: String {
        switch self {
        case .export(let path), .store(let path): return path
        }
    }
}

/// An opened input.
enum OpenedInput {
    case export(ExportReader)
    case store(HealthStore)

    /// - Parameters:
    ///   - reading: how an export is read (the face's options).
    ///   - reporter: told once when opening a store upgraded it (`RunReporter.storeOpened`).
    init(_ input: ObjectInput, reading: ReadOptions, cancellation: RunCancellation? = nil, reporter: RunReporter = .silent) throws {
        switch input {
        case .export(let path): self = .export(try ExportReader.open(path, reading: reading, cancellation: cancellation))
        case .store(let path):
            let store = try HealthStore.openForReading(at: path)
            reporter.storeOpened(store)
            self = .store(store)
        }
    }
}
