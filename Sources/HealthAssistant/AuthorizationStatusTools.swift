import HealthEngine
import HealthQuery
import MCP

/// `authorization_status`: HealthKit's `authorizationStatus(for:)`, the *share* status of each
/// type. As in HealthKit it never says whether reading was allowed: a denied read looks like a
/// read with no data.
enum AuthorizationStatusTool: ReadingTool {
    static let definition = Tool(
        name: "authorization_status",
        description: """
            The sharing (saving) status of each type: notDetermined, sharingDenied or sharingAuthorized (HealthKit's \
            authorizationStatus). It never tells whether you may read a type — as in HealthKit, a type you may not read \
            simply looks empty. Use request_status to know whether asking would show the person anything.
            """,
        inputSchema: Schema.object(["types": Schema.types], required: ["types"]),
        annotations: .init(title: "Authorization status", readOnlyHint: true, openWorldHint: false))

    static func answer(_ arguments: ToolArguments, in context: ToolContext) throws -> JSONText {
        guard let types = try arguments.types("types"), !types.isEmpty else {
            throw ToolFailure.argument("types", "is required: name at least one type")
        }
        let statuses = types.map { context.policy.shareStatus(for: $0) }
        return .object([("statuses", .object(zip(types, statuses).map { ($0, .string($1.rawValue)) }))])
    }
}

/// `request_status`: HealthKit's `getRequestStatusForAuthorization(toShare:read:)`:
/// `shouldRequest` when a request for these types would ask the person anything, else
/// `unnecessary`.
enum RequestStatusTool: ReadingTool {
    static let definition = Tool(
        name: "request_status",
        description: """
            Whether request_authorization for these types would ask the person anything: shouldRequest when some type \
            is still undecided, unnecessary when the person already decided them all (HealthKit's request status; it \
            does not tell what was decided).
            """,
        inputSchema: Schema.object([
            "read": Schema.strings("Types to read."), "share": Schema.strings("Types to share (save)."),
        ]),
        annotations: .init(title: "Authorization request status", readOnlyHint: true, openWorldHint: false))

    static func answer(_ arguments: ToolArguments, in context: ToolContext) throws -> JSONText {
        let read = try arguments.types("read") ?? []
        let share = try arguments.types("share") ?? []
        let shouldRequest = try engine {
            try AuthorizationRequest.shouldRequest(policyFile: context.configuration.policyFile, share: share, read: read)
        }
        return .object([("status", .string(shouldRequest ? "shouldRequest" : "unnecessary"))])
    }
}
