import HealthExport
import HealthOutput
import HealthQuery
import HealthStore

/// The exit statuses of healthport(1), following sysexits(3). One table, one place.
enum ExitStatus: Int32 {
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

    static func of(_ error: ExportError) -> ExitStatus {
        switch error.code {
        case .inputNotFound, .notAnExport: return .noInput
        case .malformedXML, .malformedJSON, .invalidAttribute, .malformedArchive, .unsafeMemberPath, .limitExceeded: return .dataError
        case .ioError: return .ioError
        }
    }

    static func of(_ error: OutputError) -> ExitStatus {
        switch error.code {
        case .brokenPipe: return .success
        case .cannotCreate: return .cannotCreate
        case .ioError: return .ioError
        case .invalidRequest: return .usage
        }
    }

    static func of(_ error: AuthorizationError) -> ExitStatus {
        switch error.code {
        case .errorInvalidArgument: return .usage
        case .errorAuthorizationDenied, .errorAuthorizationNotDetermined: return .permission
        case .errorUserCanceled: return .tryAgain
        }
    }

    static func of(_ error: StoreError) -> ExitStatus {
        switch error.code {
        case .notFound: return .noInput
        case .incompatible, .refusedImport: return .dataError
        case .invalidAnchor: return .usage
        case .database: return .ioError
        }
    }

    static func of(_ error: QueryError) -> ExitStatus {
        switch error.code {
        case .errorInvalidArgument: return .usage
        }
    }
}
