import HealthModel

/// A failure to write output: one type for the byte buffer and every writer over it (here, beside
/// `OutputBuffer`, which throws it).
public struct OutputError: LocatedError {
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
    /// The message, with the parts of the request it mentions as values (the output, the
    /// format, the types), so each face names them and the library names none.
    public var text: DiagnosticText
    /// The part of the request at fault, for `invalidRequest` (the output, the format, the
    /// partition); the output otherwise.
    public var argument: RequestArgument?

    public init(_ code: Code, _ message: String, path: String? = nil, argument: RequestArgument? = nil) {
        self.init(code, DiagnosticText(message), path: path, argument: argument)
    }

    public init(_ code: Code, _ text: DiagnosticText, path: String? = nil, argument: RequestArgument? = nil) {
        self.code = code
        self.text = text
        self.path = path
        self.argument = argument
    }

    /// The message in no face's words.
    public var message: String { text.neutral }

    /// The file or folder that could not be made or written.
    public var place: String? { path }
}
