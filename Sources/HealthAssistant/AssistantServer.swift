import Dispatch
import Foundation
import HealthEngine
import HealthQuery
import MCP

/// The assistant interface: a Model Context Protocol server (the official Swift SDK) over a
/// transport the caller gives (`LineTransport` for `healthport mcp`; there is no network
/// listener). Its tools read the store through the one policy gate, as the consumer of the
/// policy file; its two request tools ask the person through the client (MCP elicitation)
/// before anything is written to the policy.
///
/// Nothing here writes to standard error or a log: a health value never leaves but in a
/// tool's answer to the client, and only through the gate.
public actor AssistantServer {
    public let configuration: AssistantConfiguration
    let server: Server
    /// The client's name (its `initialize` request), the consumer's name for a new policy.
    private var clientName: String?
    private var clientCanElicit = false
    private var updates: StoreUpdates?
    /// Tool calls not yet answered.
    private var callsInFlight = 0

    /// Every tool, in the order `tools/list` gives them.
    public static let tools: [Tool] = [
        DescribeTool.definition, QuerySamplesTool.definition, StatisticsTool.definition, SleepNightsTool.definition, DaysTool.definition, ChangesTool.definition,
        AuthorizationStatusTool.definition, RequestStatusTool.definition, RequestAuthorizationTool.definition,
        RequestPerObjectAuthorizationTool.definition,
    ]

    /// The tools that read and answer at once, by name.
    static func reading(_ name: String) -> (any ReadingTool.Type)? {
        switch name {
        case DescribeTool.definition.name: DescribeTool.self
        case QuerySamplesTool.definition.name: QuerySamplesTool.self
        case StatisticsTool.definition.name: StatisticsTool.self
        case SleepNightsTool.definition.name: SleepNightsTool.self
        case DaysTool.definition.name: DaysTool.self
        case ChangesTool.definition.name: ChangesTool.self
        case AuthorizationStatusTool.definition.name: AuthorizationStatusTool.self
        case RequestStatusTool.definition.name: RequestStatusTool.self
        default: nil
        }
    }

    public init(configuration: AssistantConfiguration) {
        self.configuration = configuration
        self.server = Server(
            name: "healthport", version: configuration.serverVersion, title: "healthport",
            instructions: """
                The person's Apple Health data, read as HealthKit lets an app read it: ask with request_authorization \
                before reading a type; a type you may not read looks empty (no error). Start with describe.
                """,
            capabilities: .init(resources: .init(subscribe: true, listChanged: false), tools: .init(listChanged: false)))
    }

    /// Starts serving over `transport`; returns once the connection is up (the server runs
    /// until the client closes it, `waitUntilCompleted`, or `stop`).
    ///
    /// - Throws: `RunError` when the store cannot be opened, or the policy file exists and is
    ///   not a valid policy (both checked before serving).
    public func start(transport: any Transport) async throws {
        try configuration.input.checkOpens(reading: configuration.reading)
        if FileManager.default.fileExists(atPath: configuration.policyFile) {
            do {
                _ = try AuthorizationPolicy.load(from: configuration.policyFile)
            } catch {
                throw RunError(error)
            }
        }
        await register()
        try await server.start(transport: transport) { [weak self] info, capabilities in
            await self?.setClient(name: info.name, canElicit: capabilities.elicitation != nil)
        }
        if configuration.watchesStore, let store = configuration.store {
            let updates = StoreUpdates(configuration: configuration, store: store) { [weak self] uri in
                await self?.notifyUpdated(uri)
            }
            self.updates = updates
            updates.start()
        }
    }

    /// Returns when the client has closed the connection (the end of standard input).
    public func waitUntilCompleted() async {
        await server.waitUntilCompleted()
    }

    /// Gives the tool calls still in flight when the input ended up to `limit` to be answered
    /// (a client that writes its requests and closes its end still gets its answers): returns
    /// once no call has been in flight for a fifth of a second. A request still waiting for
    /// the person then fails with `stop()`, and writes nothing.
    public func finishCallsInFlight(limit: Duration = .seconds(10)) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        // A request read just before the end may not have reached its handler yet: wait for a
        // quiet spell, not only for the count to be zero.
        var quiet = Duration.zero
        while quiet < .milliseconds(200) && clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
            quiet = callsInFlight == 0 ? quiet + .milliseconds(10) : .zero
        }
        // The SDK sends an answer just after the handler returns.
        try? await Task.sleep(for: .milliseconds(50))
    }

    public func stop() async {
        updates?.stop()
        await server.stop()
    }

    private func setClient(name: String, canElicit: Bool) {
        clientName = name
        clientCanElicit = canElicit
    }

    /// The consumer's name for a policy file not yet written: `--consumer`, else the client's.
    private var consumerName: String {
        configuration.consumer ?? clientName.map { String($0.prefix(100)) } ?? "the assistant"
    }

    /// The policy as the file says now (read again at every call); a missing file has decided
    /// nothing.
    private func currentPolicy() throws -> AuthorizationPolicy {
        guard FileManager.default.fileExists(atPath: configuration.policyFile) else {
            return AuthorizationPolicy(consumer: .init(name: consumerName))
        }
        return try engine { try AuthorizationPolicy.load(from: configuration.policyFile) }
    }

    private func register() async {
        await server.withMethodHandler(ListTools.self) { _ in
            ListTools.Result(tools: AssistantServer.tools)
        }
        await server.withMethodHandler(CallTool.self) { [weak self] params in
            guard let self else { throw MCPError.internalError("the server stopped") }
            return try await self.call(params)
        }
        await server.withMethodHandler(ListResources.self) { _ in
            ListResources.Result(resources: [StoreUpdates.resource], nextCursor: nil)
        }
        await server.withMethodHandler(ReadResource.self) { [weak self] params in
            guard let self else { throw MCPError.internalError("the server stopped") }
            guard params.uri == StoreUpdates.resource.uri else { throw MCPError.invalidParams("unknown resource '\(params.uri.prefix(100))'") }
            let result = try await self.call(CallTool.Parameters(name: DescribeTool.definition.name))
            guard result.isError != true, case .text(let text, _, _)? = result.content.first else {
                throw MCPError.internalError("the store cannot be described now")
            }
            return ReadResource.Result(contents: [.text(text, uri: params.uri, mimeType: "application/json")])
        }
        await server.withMethodHandler(ResourceSubscribe.self) { [weak self] params in
            guard params.uri == StoreUpdates.resource.uri else { throw MCPError.invalidParams("unknown resource '\(params.uri.prefix(100))'") }
            await self?.updates?.subscribe()
            return Empty()
        }
        await server.withMethodHandler(ResourceUnsubscribe.self) { [weak self] _ in
            await self?.updates?.unsubscribe()
            return Empty()
        }
    }

    /// One tool call. An unknown tool is a JSON-RPC error (`invalidParams`); anything wrong
    /// with a known tool's call is a tool result with `isError`, which the assistant reads.
    func call(_ params: CallTool.Parameters) async throws -> CallTool.Result {
        callsInFlight += 1
        defer { callsInFlight -= 1 }
        let tool: Tool
        if let known = Self.tools.first(where: { $0.name == params.name }) {
            tool = known
        } else {
            throw MCPError.invalidParams("unknown tool '\(params.name.prefix(100))'; the tools are " + Self.tools.map(\.name).joined(separator: ", "))
        }
        do {
            let arguments = try ToolArguments(params.arguments, allowed: tool.argumentNames)
            let answer: JSONText
            switch tool.name {
            case RequestAuthorizationTool.definition.name:
                answer = try await RequestAuthorizationTool.answer(
                    arguments, configuration: configuration, consumer: consumerName, person: personAsking)
            case RequestPerObjectAuthorizationTool.definition.name:
                answer = try await withCancellation { cancellation in
                    try await RequestPerObjectAuthorizationTool.answer(
                        arguments, configuration: self.configuration, consumer: self.consumerName, person: self.personAsking,
                        cancellation: cancellation)
                }
            default:
                guard Self.reading(tool.name) != nil else { throw MCPError.internalError("tool without an implementation") }
                let policy = try currentPolicy()
                let configuration = self.configuration
                let name = tool.name
                answer = try await withCancellation { cancellation in
                    try await offThread {
                        let context = ToolContext(configuration: configuration, policy: policy, cancellation: cancellation)
                        guard let reading = AssistantServer.reading(name) else { throw ToolFailure("no such tool") }
                        return try reading.answer(arguments, in: context)
                    }
                }
            }
            return CallTool.Result(content: [.text(text: answer.text, annotations: nil, _meta: nil)], isError: false)
        } catch let failure as ToolFailure {
            return CallTool.Result(content: [.text(text: failure.message, annotations: nil, _meta: nil)], isError: true)
        }
    }

    private var personAsking: PersonAsking {
        PersonAsking(canAsk: clientCanElicit) { [server] message, schema in
            try await server.requestElicitation(message: message, requestedSchema: schema)
        }
    }

    private func notifyUpdated(_ uri: String) async {
        try? await server.notify(ResourceUpdatedNotification.message(.init(uri: uri)))
    }
}

/// Runs a blocking engine call on a dispatch queue, so the server's actors stay free to read
/// the next message (a cancellation among them).
func offThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async {
            continuation.resume(with: Result { try body() })
        }
    }
}

/// A `RunCancellation` cancelled with the calling task (an MCP `notifications/cancelled`).
func withCancellation<T: Sendable>(_ body: @Sendable (RunCancellation) async throws -> T) async throws -> T {
    let cancellation = RunCancellation()
    return try await withTaskCancellationHandler {
        try await body(cancellation)
    } onCancel: {
        cancellation.cancel()
    }
}
