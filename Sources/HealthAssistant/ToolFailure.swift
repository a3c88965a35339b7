import HealthEngine
import HealthModel
import HealthQuery

/// Why a tool call failed, as the assistant reads it: HealthKit's error names for
/// authorization, the engine's message otherwise. A failure is a tool result with `isError`
/// (the assistant can correct its call), never a crash and never a partial policy write.
///
/// Messages come from the engine (`RunError`), which holds no health data: they locate the
/// fault (an argument, a predicate's column, the policy file), never a value. They are
/// rendered here from the error's fields — its HealthKit code, the part of the request at
/// fault, the parts its message mentions — in this face's words: the tool arguments
/// (`'predicate'`, `'timeZone'`) and tools (`request_per_object_authorization`). The message's
/// text is never searched or rewritten.
struct ToolFailure: Error, Sendable {
    var message: String

    init(_ message: String) {
        self.message = message
    }

    /// A bad argument: its name and what is expected.
    static func argument(_ name: String, _ expected: String) -> ToolFailure {
        ToolFailure("errorInvalidArgument (3): '\(name)' \(expected)")
    }

    init(_ error: RunError, naming names: ToolArgumentNames = ToolArgumentNames()) {
        let render = { (text: DiagnosticText) in
            text.rendered(
                argument: { part, value in names.name(of: part).map { "'\($0)'" + (value.map { " " + $0 } ?? "") } },
                request: { request in request == .perObjectAuthorization ? "the request_per_object_authorization tool" : nil })
        }
        var text: String
        switch error.category {
        case .notAuthorized, .authorizationCancelled, .invalidRequest:
            let code = error.healthKitCode ?? .errorInvalidArgument
            text = "\(code) (\(code.rawValue)): "
            // The part at fault, unless the message already names it.
            if code == .errorInvalidArgument, let part = error.argument, let name = names.name(of: part),
                !error.text.arguments.contains(part)
            {
                text += "'\(name)'" + (error.column.map { ", column \($0)" } ?? "") + ": "
            }
            text += render(error.text)
        case .invalidConfiguration:
            text = "the policy file is not valid (the person can fix it, or decide again with healthport auth request): " + error.description
        case .cancelled:
            text = "cancelled"
        default:
            text = (error.location.map { "\($0): " } ?? "") + render(error.text)
        }
        if !error.context.isEmpty { text += "\n" + error.context.joined(separator: "\n") }
        if error.healthKitCode == .errorAuthorizationNotDetermined {
            text += "\nAsk the person first: call request_authorization with these types."
        }
        self.message = text
    }
}

/// The assistant's names for the parts of a request: its tool arguments. A part no tool takes
/// (the store, the output) has none, and is named in the engine's neutral words.
///
/// `types` is the one part tools name differently: `types` for the reading tools, `type` for
/// the statistics and per-object tools, `read` or `share` where a request names them.
struct ToolArgumentNames: Sendable {
    var types = "types"

    func name(of part: RequestArgument) -> String? {
        switch part {
        case .predicate: "predicate"
        case .types: types
        case .unit: "unit"
        case .timeZone: "timeZone"
        case .start: "start"
        case .end: "end"
        case .anchor: "anchor"
        case .anchorDate: "anchorDate"
        case .sort: "sort"
        case .statisticsOptions: "options"
        case .limit: "limit"
        case .readTypes: "read"
        case .shareTypes: "share"
        case .perObjectType: "type"
        case .store, .policyFile, .consumer, .input, .output, .format, .partition, .personIDs, .resume, .follow, .force,
            .salvage, .cda, .summaries, .deidentify, .includeRoutes:
            nil
        }
    }
}
