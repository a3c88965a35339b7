/// Why the store cannot be opened, imported into or read.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Hashable {
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

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
