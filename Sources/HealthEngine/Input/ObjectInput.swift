import HealthExport
import HealthStore

/// Where a run reads objects: an export (streamed), or the store (through its SQL prefilter).
public enum ObjectInput: Sendable, Equatable {
    /// A zip, the unzipped folder, export.xml, healthport's NDJSON, or `-` for standard input.
    case export(String)
    /// The store at this path.
    case store(String)
}

/// An opened input.
enum OpenedInput {
    case export(ExportReader)
    case store(HealthStore)

    init(_ input: ObjectInput, jobs: Int? = nil) throws {
        switch input {
        case .export(let path): self = .export(try ExportReader.open(path, jobs: jobs))
        case .store(let path): self = .store(try HealthStore.openForReading(at: path))
        }
    }
}
