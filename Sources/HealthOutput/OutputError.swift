/// A failure to write output. One type for the module.
public struct OutputError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Hashable {
        /// The reader of standard output went away (`| head`). Not an error for the person: the
        /// CLI stops quietly with status 0.
        case brokenPipe
        /// The output file or folder cannot be created.
        case cannotCreate
        /// Writing failed (disk full, …).
        case ioError
        /// The output request does not fit the data (CSV to stdout with several tables).
        case invalidRequest
    }

    public var code: Code
    public var path: String?
    public var message: String

    public init(_ code: Code, _ message: String, path: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
    }

    public var description: String { path.map { "\($0): \(message)" } ?? message }
}
