import Foundation

/// An error with HealthKit's codes (HealthKit: `HKError`), so that `catch HKError.errorUserCanceled`
/// works as it does on a phone.
///
/// Every error the API throws is an `HKError`; `localizedDescription` carries healthport's
/// message (which file, which type). Read denial is never an error: HealthKit hides it, and so
/// does this library (a denied type answers like an empty one).
public struct HKError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// HealthKit's `HKError.Code`, with its raw values (docs/reference/healthkit.md §6.8).
    public enum Code: Int, Sendable, Hashable {
        case unknownError = 0
        case errorHealthDataUnavailable = 1
        case errorHealthDataRestricted = 2
        /// An invalid argument: a per-object type in `requestAuthorization`, a predicate this
        /// library cannot read, an anchor from another store, a malformed input file.
        case errorInvalidArgument = 3
        /// Saving was denied. Never raised for reads (read denial is hidden).
        case errorAuthorizationDenied = 4
        /// The type was never requested: a query that names a type the policy has not decided.
        case errorAuthorizationNotDetermined = 5
        /// The store cannot be read (HealthKit: the device is locked); here: a missing or
        /// unreadable file, a database failure.
        case errorDatabaseInaccessible = 6
        /// The person cancelled an authorization sheet.
        case errorUserCanceled = 7
        case errorNoData = 11
    }

    /// HealthKit's code.
    public let code: Code
    /// healthport's explanation (which file, which type), for people; match on `code`.
    public let message: String

    /// An error with a code and an explanation.
    public init(_ code: Code, _ message: String = "") {
        self.code = code
        self.message = message
    }

    /// The codes as `HKError` members, so that `catch HKError.errorUserCanceled` reads as in HealthKit.
    public static let errorHealthDataUnavailable = Code.errorHealthDataUnavailable
    public static let errorInvalidArgument = Code.errorInvalidArgument
    public static let errorAuthorizationDenied = Code.errorAuthorizationDenied
    public static let errorAuthorizationNotDetermined = Code.errorAuthorizationNotDetermined
    public static let errorDatabaseInaccessible = Code.errorDatabaseInaccessible
    public static let errorUserCanceled = Code.errorUserCanceled
    public static let errorNoData = Code.errorNoData

    /// HealthKit's error domain.
    public static let errorDomain = "com.apple.healthkit"

    /// `errorUserCanceled (7): the request was cancelled; …`.
    public var description: String { "\(code) (\(code.rawValue))" + (message.isEmpty ? "" : ": \(message)") }
    /// The description, so `localizedDescription` names the code and the reason.
    public var errorDescription: String? { description }
}

extension HKError.Code {
    /// `catch HKError.errorUserCanceled { … }`: matches an `HKError` with that code.
    public static func ~= (code: HKError.Code, error: any Error) -> Bool {
        (error as? HKError)?.code == code
    }
}
