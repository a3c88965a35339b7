/// Whether the consumer may save a type (HealthKit: `HKAuthorizationStatus`). It describes
/// sharing only and never reveals whether reading was allowed.
public enum HKAuthorizationStatus: Int, Sendable {
    case notDetermined = 0
    case sharingDenied = 1
    case sharingAuthorized = 2
}

/// Whether a request for some types would ask the person anything (HealthKit:
/// `HKAuthorizationRequestStatus`); it reveals nothing about the answers.
public enum HKAuthorizationRequestStatus: Int, Sendable {
    /// Could not be determined (an error).
    case unknown = 0
    /// At least one type has not been requested.
    case shouldRequest = 1
    /// Every type was requested before, whatever the answers.
    case unnecessary = 2
}
