import HealthExport
import HealthModel
import HealthOutput
import HealthQuery
import HealthStore

/// Why a run failed, as one type for every face: the CLI maps `category` to an exit status, a
/// server to its own error codes. The message holds no personal data beyond what locates the
/// fault (a file, a line, a column).
public struct RunError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure, independent of the module that found it.
    public enum Category: Sendable, Hashable {
        /// The request itself is wrong: an option, a predicate, an anchor for another query.
        case invalidRequest
        /// The input is not well-formed (XML, JSON, a zip, a date), or does not fit the store.
        case malformedInput
        /// The input is missing, unreadable, or not a Health export; the store does not exist.
        case inputNotFound
        /// An output file, folder or store cannot be created.
        case cannotCreateOutput
        /// Reading or writing failed (disk full, a database error).
        case ioFailure
        /// The policy refuses with one of HealthKit's documented authorization errors (not the
        /// hidden read denial, which is an empty answer).
        case notAuthorized
        /// The person cancelled an authorization request: try again later.
        case authorizationCancelled
        /// A policy or configuration file is invalid.
        case invalidConfiguration
        /// The run was cancelled by its caller (`RunCancellation`).
        case cancelled
        /// The reader of the output went away (a closed pipe): not a failure, stop quietly.
        case outputClosed
        /// A bug in healthport.
        case internalError
    }

    public var category: Category
    public var message: String
    /// Where: a file, `archive(member):line:column`, or an option (`--where:1:13`).
    public var location: String?
    /// Lines that show the fault in its text (a predicate with a caret under it).
    public var context: [String]

    public init(_ category: Category, _ message: String, location: String? = nil, context: [String] = []) {
        self.category = category
        self.message = message
        self.location = location
        self.context = context
    }

    public var description: String { (location.map { "\($0): " } ?? "") + message }

    /// Classifies an error any module threw; a `RunError` stays as it is.
    public init(_ error: any Error) {
        switch error {
        case let error as RunError:
            self = error
        case let error as ExportError:
            let category: Category
            switch error.code {
            case .inputNotFound, .notAnExport: category = .inputNotFound
            case .malformedXML, .malformedJSON, .invalidAttribute, .malformedArchive, .unsafeMemberPath, .limitExceeded:
                category = .malformedInput
            case .ioError: category = .ioFailure
            }
            self.init(category, error.message, location: error.location?.description)
        case let error as OutputError:
            let category: Category
            switch error.code {
            case .brokenPipe: category = .outputClosed
            case .cannotCreate: category = .cannotCreateOutput
            case .ioError: category = .ioFailure
            case .invalidRequest: category = .invalidRequest
            }
            self.init(category, error.message, location: error.path)
        case let error as QueryError:
            switch error.code {
            case .errorInvalidArgument: self.init(.invalidRequest, error.message)
            }
        case let error as AuthorizationError:
            let category: Category
            switch error.code {
            case .errorInvalidArgument: category = .invalidRequest
            case .errorAuthorizationDenied, .errorAuthorizationNotDetermined: category = .notAuthorized
            case .errorUserCanceled: category = .authorizationCancelled
            }
            self.init(category, error.description)
        case let error as AnchorError:
            self.init(.invalidRequest, error.message)
        case let error as StoreError:
            let category: Category
            switch error.code {
            case .notFound: category = .inputNotFound
            case .incompatible, .refusedImport: category = .malformedInput
            case .invalidAnchor: category = .invalidRequest
            case .database: category = .ioFailure
            }
            self.init(category, error.message)
        case let error as PolicyFileError:
            self.init(.invalidConfiguration, error.message, location: error.path)
        case let error as QueryPredicateError:
            self.init(
                .invalidRequest, error.message, location: "--where" + (error.column.map { ":1:\($0)" } ?? ""),
                context: error.caretLines)
        case is CancellationError:
            self.init(.cancelled, "cancelled")
        default:
            self.init(.internalError, "internal error: \(error); please report this as a bug")
        }
    }

    /// Runs `body`, turning whatever it throws into a `RunError`: every run's public entry
    /// point goes through here, so callers handle one error type.
    static func wrapping<T>(_ body: () throws -> T) throws(RunError) -> T {
        do {
            return try body()
        } catch {
            throw RunError(error)
        }
    }
}
