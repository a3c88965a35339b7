import HealthModel

/// An authorization failure, named after HealthKit's `HKError.Code` (docs/reference/healthkit.md §6.8).
///
/// Read denial is never an error: it is hidden (the data looks absent). These are the cases
/// HealthKit does report.
///
/// The code is a field, never part of `message`: a face switches on it (HealthKitPort's
/// `HKError`, the assistant's advice for an undecided type) and shows it in its own format. Its
/// `argument` is the part of the request at fault: the types to read or share of an
/// authorization request, the per-object type, or the types a query names.
public typealias AuthorizationError = CodedFailure<AuthorizationErrorCode>

/// The codes of `AuthorizationError`: HealthKit's, with its numbers.
public enum AuthorizationErrorCode: Int, FailureCode {
    case errorInvalidArgument = 3
    case errorAuthorizationDenied = 4
    case errorAuthorizationNotDetermined = 5
    case errorUserCanceled = 7

    /// A log names the code and its number, as HealthKit's errors do.
    public func describe(_ message: String) -> String { "\(self) (\(rawValue)): \(message)" }
}

/// A policy file that cannot be read or is not a valid policy.
public struct PolicyFileError: LocatedError {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// The part of the request at fault: the policy file, at `path`.
    public var argument: RequestArgument { .policyFile }

    public var place: String? { path }
}
