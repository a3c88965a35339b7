import HealthEngine
import HealthQuery

/// Why a tool call failed, as the assistant reads it: HealthKit's error names for
/// authorization, the engine's message otherwise. A failure is a tool result with `isError`
/// (the assistant can correct its call), never a crash and never a partial policy write.
///
/// Messages come from the engine (`RunError`), which holds no health data: they locate the
/// fault (an argument, a predicate's column, the policy file), never a value.
struct ToolFailure: Error, Sendable {
    var message: String

    init(_ message: String) {
        self.message = message
    }

    /// A bad argument: its name and what is expected.
    static func argument(_ name: String, _ expected: String) -> ToolFailure {
        ToolFailure("errorInvalidArgument: '\(name)' \(expected)")
    }

    static let argumentNames = [
        ("--anchor-date", "anchorDate"), ("--unit", "unit"), ("--type", "type"), ("--tz", "timeZone"), ("--where", "predicate"),
        ("--strict-start", "strictStartDate"), ("--strict-end", "strictEndDate"), ("--options", "options"), ("--sort", "sort"),
    ]

    init(_ error: RunError) {
        var text: String
        switch error.category {
        case .notAuthorized, .authorizationCancelled:
            // `AuthorizationError` already reads "errorUserCanceled (7): …".
            text = error.message
        case .invalidRequest:
            text = error.message.hasPrefix("error") ? error.message : "errorInvalidArgument: " + error.message
            // The engine speaks the CLI's option names; here they are arguments.
            for (option, argument) in Self.argumentNames { text = text.replacingOccurrences(of: option, with: "'\(argument)'") }
        case .invalidConfiguration:
            text = "the policy file is not valid (the person can fix it, or decide again with healthport auth request): " + error.description
        case .cancelled:
            text = "cancelled"
        default:
            text = error.description
        }
        if let location = error.location, location.hasPrefix("--where") {
            // The CLI's option name means the predicate argument here.
            text += " (predicate" + location.dropFirst("--where".count) + ")"
        }
        if !error.context.isEmpty { text += "\n" + error.context.joined(separator: "\n") }
        if text.contains("auth request-per-object") {
            // The CLI's name for the same request.
            text += " (here: the request_per_object_authorization tool)"
        }
        if error.category == .notAuthorized, text.contains("errorAuthorizationNotDetermined") {
            text += "\nAsk the person first: call request_authorization with these types."
        }
        self.message = text
    }
}
