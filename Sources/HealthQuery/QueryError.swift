import HealthModel

/// A failure to understand a query. One type for the module; codes follow HealthKit's
/// (`errorInvalidArgument`). Its `argument` is the part of the request at fault (the unit, the
/// sort, the types), when there is one.
public typealias QueryError = CodedFailure<QueryErrorCode>

/// The codes of `QueryError`.
public enum QueryErrorCode: FailureCode {
    case errorInvalidArgument
}
