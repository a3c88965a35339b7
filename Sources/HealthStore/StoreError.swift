import HealthModel

/// Why the store cannot be opened, imported into or read.
public struct StoreError: CodedError, CustomStringConvertible {
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
    /// The message, with the parts of the request and the requests it mentions as values, so
    /// each face names them (the CLI `--store`, `--force`) and the library names none.
    public var text: DiagnosticText
    /// The part of the request at fault, when it is not the one the code implies (the store
    /// for `notFound`, `incompatible` and `database`, the anchor for `invalidAnchor`, the input
    /// for `refusedImport`).
    public var argument: RequestArgument?

    public init(_ code: Code, _ text: DiagnosticText, argument: RequestArgument? = nil) {
        self.code = code
        self.text = text
        self.argument = argument
    }

    /// The part of the request at fault: `argument`, or the one the code implies.
    public var argumentAtFault: RequestArgument {
        if let argument { return argument }
        switch code {
        case .notFound, .incompatible, .database: return .store
        case .refusedImport: return .input
        case .invalidAnchor: return .anchor
        }
    }

    public var description: String { message }
}
