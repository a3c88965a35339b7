import HealthModel

/// A key file that cannot be read, made or understood. One error type for the module, shaped
/// like the others (a code and its context): the faces map the code to an exit status.
///
/// The message never quotes the file's content: it is a secret.
public struct DeidentificationKeyError: LocatedError {
    public enum Code: Sendable, Hashable {
        /// The file exists but cannot be read (permissions, a folder).
        case unreadable
        /// The file is not a healthport key file, or its secret is not 32 bytes.
        case invalid
        /// The file is absent and cannot be created (no such folder, no permission).
        case cannotCreate
    }

    public var code: Code
    /// The key file's path.
    public var path: String
    public var message: String

    public init(_ code: Code, _ message: String, path: String) {
        self.code = code
        self.message = message
        self.path = path
    }

    public var place: String? { path }
}
