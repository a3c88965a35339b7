import HealthModel

/// An authorization failure, named after HealthKit's `HKError.Code` (docs/reference/healthkit.md §6.8).
///
/// Read denial is never an error: it is hidden (the data looks absent). These are the cases
/// HealthKit does report.
///
/// The code is a field, never part of `message`: a face switches on it (HealthKitPort's
/// `HKError`, the assistant's advice for an undecided type) and shows it in its own format.
public struct AuthorizationError: CodedError, CustomStringConvertible {
    public enum Code: Int, Sendable {
        case errorInvalidArgument = 3
        case errorAuthorizationDenied = 4
        case errorAuthorizationNotDetermined = 5
        case errorUserCanceled = 7
    }

    public var code: Code
    /// The message, with the parts of the request and the requests it mentions as values.
    public var text: DiagnosticText
    /// The part of the request at fault: the types to read or share of an authorization
    /// request, the per-object type, or the types a query names.
    public var argument: RequestArgument?

    public init(_ code: Code, _ text: DiagnosticText, argument: RequestArgument? = nil) {
        self.code = code
        self.text = text
        self.argument = argument
    }

    public var description: String { "\(code) (\(code.rawValue)): \(message)" }
}

/// A policy file that cannot be read or is not a valid policy.
public struct PolicyFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// The part of the request at fault: the policy file, at `path`.
    public var argument: RequestArgument { .policyFile }

    public var description: String { "\(path): \(message)" }
}
