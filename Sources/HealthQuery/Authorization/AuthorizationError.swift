/// An authorization failure, named after HealthKit's `HKError.Code` (healthkit-reference.md §6.8).
///
/// Read denial is never an error: it is hidden (the data looks absent). These are the cases
/// HealthKit does report.
public struct AuthorizationError: Error, Sendable, CustomStringConvertible {
    public enum Code: Int, Sendable {
        case errorInvalidArgument = 3
        case errorAuthorizationDenied = 4
        case errorAuthorizationNotDetermined = 5
        case errorUserCanceled = 7
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
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

    public var description: String { "\(path): \(message)" }
}
