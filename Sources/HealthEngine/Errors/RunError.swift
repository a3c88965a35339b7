import HealthDeidentify
import HealthExport
import HealthJSON
import HealthModel
import HealthOutput
import HealthQuery
import HealthStore

/// Why a run failed, as one type for every face: the CLI maps `category` to an exit status, a
/// server to its own error codes. The message holds no personal data beyond what locates the
/// fault (a file, a line, a column).
///
/// What a face needs to decide is a field, as in GRDB's `DatabaseError` (`resultCode`) and
/// swift-format's `Finding` (category, location): HealthKit's code (`healthKitCode`), the part of
/// the request at fault (`argument`, with a `column` in its text), and the parts the message
/// mentions (`text`). So each face renders the error in its own words — the CLI
/// `--where:1:13: …`, the assistant `'predicate', column 13: …`, HealthKitPort an `HKError`
/// with the code — and none reads the message to find out what happened. The message itself
/// names no face's options: its `message` reads "the predicate", "the anchor", "the store".
public struct RunError: LocatedError {
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

    /// HealthKit's name for a failure (HealthKit: `HKError.Code`, with its raw values), for the
    /// failures HealthKit reports with one: an invalid argument (a predicate, a unit, an
    /// anchor, a type an authorization request may not name) and the authorization errors.
    ///
    /// `AuthorizationError.Code` and `QueryError.Code` map into it; HealthKitPort maps it to
    /// `HKError.Code`, the assistant shows it before its message.
    public enum HealthKitCode: Int, Sendable, Hashable {
        case errorInvalidArgument = 3
        case errorAuthorizationDenied = 4
        case errorAuthorizationNotDetermined = 5
        case errorUserCanceled = 7
    }

    public var category: Category
    /// HealthKit's code, when HealthKit reports the failure with one.
    public var healthKitCode: HealthKitCode?
    /// The part of the request at fault, when the fault is in one: the predicate, the unit,
    /// the anchor, the store, the output… Faces name it in their own words.
    public var argument: RequestArgument?
    /// The 1-based column in the text of `argument` (a predicate's) where the fault is.
    public var column: Int?
    /// The message, with the parts of the request it mentions as values; a face renders it
    /// with its own names (`DiagnosticText.rendered(argument:request:)`).
    public var text: DiagnosticText
    /// Where in a file: a path, or `archive(member):line:column`. Never an argument (that is
    /// `argument` and `column`).
    public var location: String?
    /// Lines that show the fault in its text (a predicate with a caret under it).
    public var context: [String]

    public init(
        _ category: Category, _ message: String, location: String? = nil, context: [String] = [],
        healthKitCode: HealthKitCode? = nil, argument: RequestArgument? = nil, column: Int? = nil
    ) {
        self.init(
            category, DiagnosticText(message), location: location, context: context, healthKitCode: healthKitCode,
            argument: argument, column: column)
    }

    public init(
        _ category: Category, _ text: DiagnosticText, location: String? = nil, context: [String] = [],
        healthKitCode: HealthKitCode? = nil, argument: RequestArgument? = nil, column: Int? = nil
    ) {
        self.category = category
        self.text = text
        self.location = location
        self.context = context
        self.healthKitCode = healthKitCode
        self.argument = argument
        self.column = column
    }

    /// The message in no face's words ("the predicate", "the anchor"), without the code.
    public var message: String { text.neutral }

    /// Whether the failure is one of HealthKit's authorization errors: a refused or cancelled
    /// authorization, or an authorization request HealthKit rejects (an invalid argument of its
    /// types to read or share, or of its per-object type). A face that shows HealthKit's code
    /// only for authorization (the CLI) reads this; it is never found in the message.
    public var isAuthorizationFailure: Bool {
        switch category {
        case .notAuthorized, .authorizationCancelled: return true
        default: return healthKitCode != nil && argument?.isAuthorizationRequestPart == true
        }
    }

    /// Where, in no face's words: the file location, then the part of the request and the
    /// column in it (`the predicate, column 13`); what `description` puts before the message.
    public var place: String? {
        var parts: [String] = []
        if let location { parts.append(location) }
        if let argument, let column { parts.append("\(argument.neutralName), column \(column)") }
        return parts.isEmpty ? nil : parts.joined(separator: ": ")
    }

    /// Classifies an error any module threw; a `RunError` stays as it is.
    public init(_ error: any Error) {
        switch error {
        case let error as RunError:
            self = error
        case let error as ExportError:
            let category: Category
            switch error.code {
            case .inputNotFound, .notAnExport, .noExportDocument: category = .inputNotFound
            case .malformedXML, .malformedJSON, .invalidAttribute, .malformedArchive, .unsafeMemberPath, .limitExceeded:
                category = .malformedInput
            case .ioError: category = .ioFailure
            }
            self.init(category, error.text, location: error.location?.description, argument: error.argument)
        case let error as OutputError:
            let category: Category
            switch error.code {
            case .brokenPipe: category = .outputClosed
            case .cannotCreate: category = .cannotCreateOutput
            case .ioError: category = .ioFailure
            case .invalidRequest: category = .invalidRequest
            }
            self.init(category, error.text, location: error.path, argument: error.argument ?? .output)
        case let error as QueryError:
            switch error.code {
            case .errorInvalidArgument:
                self.init(.invalidRequest, error.text, healthKitCode: .errorInvalidArgument, argument: error.argument)
            }
        case let error as AuthorizationError:
            let category: Category
            let code: HealthKitCode
            switch error.code {
            case .errorInvalidArgument: (category, code) = (.invalidRequest, .errorInvalidArgument)
            case .errorAuthorizationDenied: (category, code) = (.notAuthorized, .errorAuthorizationDenied)
            case .errorAuthorizationNotDetermined: (category, code) = (.notAuthorized, .errorAuthorizationNotDetermined)
            case .errorUserCanceled: (category, code) = (.authorizationCancelled, .errorUserCanceled)
            }
            self.init(category, error.text, healthKitCode: code, argument: error.argument)
        case let error as AnchorError:
            self.init(.invalidRequest, error.text, healthKitCode: .errorInvalidArgument, argument: error.argument)
        case let error as StoreError:
            let category: Category
            switch error.code {
            case .notFound: category = .inputNotFound
            case .incompatible, .refusedImport: category = .malformedInput
            case .invalidAnchor: category = .invalidRequest
            case .database: category = .ioFailure
            }
            self.init(
                category, error.text, healthKitCode: error.code == .invalidAnchor ? .errorInvalidArgument : nil,
                argument: error.argumentAtFault)
        case let error as DeidentificationKeyError:
            // Like a policy file: a key file that is not one is configuration; one that cannot be
            // made is an output that cannot be created.
            let category: Category
            switch error.code {
            case .unreadable: category = .inputNotFound
            case .invalid: category = .invalidConfiguration
            case .cannotCreate: category = .cannotCreateOutput
            }
            self.init(category, error.message, location: error.path, argument: .deidentify)
        case let error as PolicyFileError:
            self.init(.invalidConfiguration, error.message, location: error.path, argument: error.argument)
        case let error as QueryPredicateError:
            self.init(
                .invalidRequest, error.message, context: error.caretLines, healthKitCode: .errorInvalidArgument,
                argument: error.argument, column: error.column)
        case let error as TemporaryFileError:
            self.init(.ioFailure, error.message, location: error.folder)
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
