import ArgumentParser
import Foundation
import HealthportCommandLine

extension Healthport {
    /// `healthport mcp`: the assistant interface. Its options are parsed and shown here, and the
    /// server itself is `healthport-mcp`, installed beside `healthport`, which this command
    /// becomes (`execv`): the MCP SDK links FoundationNetworking and libcurl, which no other
    /// command needs (`docs/ARCHITECTURE.md`).
    struct MCPServer: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mcp", abstract: MCPOptions.abstract, discussion: MCPOptions.discussion)

        @OptionGroup var options: MCPOptions

        func run() throws {
            let server = Self.serverExecutable()
            // The arguments after `mcp`, as given: healthport-mcp parses them again, the same way.
            let given = Array(CommandLine.arguments.dropFirst())
            let arguments = Array(given.drop { $0 != "mcp" }.dropFirst())
            guard let server, FileManager.default.isExecutableFile(atPath: server) else {
                Diagnostics().error("healthport mcp runs healthport-mcp, which is not installed beside healthport (\(server ?? "no path")); install both from the same build or package")
                throw ExitCode(ExitStatus.software.rawValue)
            }
            var argv: [UnsafeMutablePointer<CChar>?] = ([server] + arguments).map { strdup($0) } + [nil]
            execv(server, &argv)
            Diagnostics().error("cannot run \(server): \(String(cString: strerror(errno)))")
            throw ExitCode(ExitStatus.software.rawValue)
        }

        /// `healthport-mcp` in the folder of the running `healthport` (symbolic links resolved,
        /// so a link on PATH finds the real installation).
        static func serverExecutable() -> String? {
            guard let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return nil }
            return executable.deletingLastPathComponent().appendingPathComponent("healthport-mcp").path
        }
    }
}
