import HealthModel

/// Why the store cannot be opened, imported into or read. Its `argument` is the part of the
/// request at fault when it is not the one the code implies (`argumentAtFault`).
public typealias StoreError = CodedFailure<StoreErrorCode>

/// The codes of `StoreError`.
public enum StoreErrorCode: FailureCode {
    /// No store at the path (reading commands never create one).
    case notFound
    /// A file that is not a healthport store, or a store this version cannot read.
    case incompatible
    /// The export does not fit the store (another person's, or older than the last import).
    case refusedImport
    /// An anchor that is not a position of this store.
    case invalidAnchor
    /// SQLite failed (disk full, I/O error, locked past the timeout).
    case database
}

extension CodedFailure where Code == StoreErrorCode {
    /// The part of the request at fault: `argument`, or the one the code implies (the store for
    /// `notFound`, `incompatible` and `database`, the anchor for `invalidAnchor`, the input for
    /// `refusedImport`).
    public var argumentAtFault: RequestArgument {
        if let argument { return argument }
        switch code {
        case .notFound, .incompatible, .database: return .store
        case .refusedImport: return .input
        case .invalidAnchor: return .anchor
        }
    }
}
