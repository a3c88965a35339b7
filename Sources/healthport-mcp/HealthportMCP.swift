import ArgumentParser
import Dispatch
import Foundation
import HealthAssistant
import HealthEngine
import HealthExport
import HealthStore
import HealthportCommandLine

/// `healthport-mcp`: the assistant interface, a Model Context Protocol server on standard input
/// and output (HealthAssistant), launched by an assistant's client, directly or as
/// `healthport mcp`.
///
/// An executable of its own so that the MCP SDK, which links FoundationNetworking and through
/// it libcurl, is loaded by this server only, never by the other commands.
@main
struct HealthportMCP: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthport-mcp", abstract: MCPOptions.abstract, discussion: MCPOptions.discussion,
        version: HealthportVersion.version)

    @OptionGroup var options: MCPOptions

    static func main() {
        ArgumentEncoding.refuseInvalidUTF8(Self.self, tool: "healthport-mcp")
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exitPrintably(withError: error)
        }
    }

    func run() throws {
        try Diagnostics().run {
            let input: ObjectInput = options.export.map { .export($0) }
                ?? .store(StoreLocation.resolve(options.store, environment: ProcessInfo.processInfo.environment))
            var configuration = AssistantConfiguration(input: input, policyFile: options.policy, consumer: options.consumer)
            configuration.serverVersion = HealthportVersion.version
            // Every run a tool makes reads an export as asked (`--parser`), explicitly.
            configuration.reading = options.parsing.reading
            let server = AssistantServer(configuration: configuration)
            let outcome = Outcome()
            let done = DispatchSemaphore(value: 0)
            Task {
                do {
                    try await server.start(transport: LineTransport())
                    await server.waitUntilCompleted()
                    await server.finishCallsInFlight()
                    await server.stop()
                } catch {
                    outcome.set(error)
                }
                done.signal()
            }
            done.wait()
            if let error = outcome.error { throw error }
        }
    }
}

/// The server task's failure, handed to the waiting command.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?
    func set(_ error: any Error) { lock.withLock { stored = error } }
    var error: (any Error)? { lock.withLock { stored } }
}
