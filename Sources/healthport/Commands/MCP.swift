import ArgumentParser
import Dispatch
import Foundation
import HealthAssistant
import HealthEngine
import HealthExport
import HealthStore
import MCP

extension Healthport {
    /// `healthport mcp`: the assistant interface, a Model Context Protocol server on standard
    /// input and output (HealthAssistant), launched by an assistant's client.
    struct MCPServer: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mcp",
            abstract: "Serve the store to an AI assistant over MCP (stdio), asking the person first, as HealthKit does.",
            discussion: """
                A Model Context Protocol server on standard input and output, for an assistant's client to launch. \
                The assistant reads only what the policy file lets its consumer read, and asks the person (MCP \
                elicitation) before the policy changes. See healthport-mcp(1).
                """)

        @Argument(
            help: ArgumentHelp("Serve this export (zip, folder or export.xml) instead of the store.", valueName: "export"),
            completion: .file(extensions: ["zip", "xml"]))
        var export: String? = nil

        @OptionGroup var parsing: ParserOptions

        @Option(
            name: .long,
            help: ArgumentHelp(
                "The store (default: $HEALTHPORT_STORE, else ~/.local/share/healthport/health.sqlite).", valueName: "path"))
        var store: String? = nil

        @Option(
            name: .long, help: ArgumentHelp("The assistant's policy file (healthport-policy(5)); created when the person first answers.", valueName: "file"),
            completion: .file(extensions: ["json"]))
        var policy: String

        @Option(name: .long, help: ArgumentHelp("The consumer's name for a new policy file (default: the client's name).", valueName: "name"))
        var consumer: String? = nil

        func validate() throws {
            if export != nil && store != nil { throw ValidationError("give an export or --store, not both") }
            if export == "-" { throw ValidationError("standard input carries the protocol: give the export as a file") }
        }

        func run() throws {
            try Diagnostics().run {
                let input: ObjectInput = export.map { .export($0) } ?? .store(StoreLocation.resolve(store, environment: ProcessInfo.processInfo.environment))
                var configuration = AssistantConfiguration(input: input, policyFile: policy, consumer: consumer)
                configuration.serverVersion = Healthport.version
                // Every run a tool makes reads an export as asked (`--parser`), explicitly.
                configuration.reading = parsing.reading
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
}

/// The server task's failure, handed to the waiting command.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?
    func set(_ error: any Error) { lock.withLock { stored = error } }
    var error: (any Error)? { lock.withLock { stored } }
}
