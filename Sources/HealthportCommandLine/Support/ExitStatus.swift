import HealthEngine

/// The exit statuses of healthport(1), following sysexits(3). One table, one place.
package enum ExitStatus: Int32 {
    case success = 0
    /// `--salvage`: the export was broken; what came before the break was converted.
    case salvaged = 3
    case usage = 64
    case dataError = 65
    case noInput = 66
    case software = 70
    case cannotCreate = 73
    case ioError = 74
    case tryAgain = 75
    case permission = 77
    case configuration = 78
    case interrupted = 130

    /// The status for a failure of any run: the one mapping from the engine's categories.
    package static func of(_ category: RunError.Category) -> ExitStatus {
        switch category {
        case .invalidRequest: return .usage
        case .malformedInput: return .dataError
        case .inputNotFound: return .noInput
        case .cannotCreateOutput: return .cannotCreate
        case .ioFailure: return .ioError
        case .notAuthorized: return .permission
        case .authorizationCancelled: return .tryAgain
        case .invalidConfiguration: return .configuration
        case .cancelled: return .interrupted
        case .outputClosed: return .success
        case .internalError: return .software
        }
    }
}
