import HealthEngine
import HealthModel

/// The command line's words for the parts of a request and the requests the engine names as
/// values (`RequestArgument`, `SuggestedRequest`): the one table of option spellings, next to
/// the diagnostics that print them.
///
/// The engine's messages never spell an option; they hold the part as a value, and this face
/// renders it (`--unit needs --type`), as the assistant renders the same message with its tool
/// arguments (`'unit' needs 'types'`).
package enum OptionNames {
    /// The option that sets `argument`, with the value the message gives it (`--format ndjson`).
    package static func spelling(of argument: RequestArgument, value: String?) -> String {
        option(for: argument) + (value.map { " " + $0 } ?? "")
    }

    package static func option(for argument: RequestArgument) -> String {
        switch argument {
        case .predicate: "--where"
        case .types, .perObjectType: "--type"
        case .unit: "--unit"
        case .timeZone: "--tz"
        case .start: "--start"
        case .end: "--end"
        case .anchor: "--anchor"
        case .anchorDate: "--anchor-date"
        case .sort: "--sort"
        case .statisticsOptions: "--options"
        case .limit: "--limit"
        case .store: "--store"
        case .policyFile: "--policy"
        case .consumer: "--consumer"
        case .readTypes: "--read"
        case .shareTypes: "--share"
        case .input: "EXPORT"
        case .output: "--output"
        case .format: "--format"
        case .partition: "--partition"
        case .personIDs: "--person-id"
        case .resume: "--resume"
        case .follow: "--follow"
        case .force: "--force"
        case .salvage: "--salvage"
        case .cda: "--cda"
        case .summaries: "--summaries"
        case .deidentify: "--deidentify"
        case .includeRoutes: "--include-routes"
        }
    }

    /// The command that makes `request`.
    package static func command(for request: SuggestedRequest) -> String {
        switch request {
        case .perObjectAuthorization: "auth request-per-object"
        case .importExport(let store): "healthport import EXPORT --store \(store)"
        case .exportArchive: "healthport convert --format export --output X.zip"
        }
    }

    /// A message in the command line's words.
    package static func render(_ text: DiagnosticText) -> String {
        text.rendered(argument: { spelling(of: $0, value: $1) }, request: { command(for: $0) })
    }

    /// Where a failure is, as the command line shows it before `error:`: the predicate's option
    /// and column (`--where:1:13`, as a compiler shows a file's), else the file.
    package static func location(of error: RunError) -> String? {
        if error.argument == .predicate {
            return option(for: .predicate) + (error.column.map { ":1:\($0)" } ?? "")
        }
        return error.location
    }

    /// The message as the command line prints it after `error:`: HealthKit's code first for
    /// authorization failures (`errorUserCanceled (7): …`, as healthport-auth(1) documents),
    /// then the message in the command line's words.
    package static func message(of error: RunError) -> String {
        let code = error.isAuthorizationFailure ? error.healthKitCode.map { "\($0) (\($0.rawValue)): " } ?? "" : ""
        return code + render(error.text)
    }
}
