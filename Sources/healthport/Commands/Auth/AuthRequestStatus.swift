import ArgumentParser
import Foundation
import HealthEngine
import HealthModel
import HealthQuery
import HealthportCommandLine

extension Healthport.Auth {
    struct RequestStatus: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "request-status",
            abstract: "Print shouldRequest when a request for these types would ask anything, else unnecessary.")

        @OptionGroup var policyFile: PolicyFileOption
        @OptionGroup var requested: RequestedTypes

        @OptionGroup var diagnostics: DiagnosticFormatOption

        func run() throws {
            try Diagnostics(format: diagnostics.diagnosticFormat).run {
                let (share, read) = try requested.resolved()
                let shouldRequest = try AuthorizationRequest.shouldRequest(policyFile: policyFile.policy, share: share, read: read)
                FileHandle.standardOutput.write(Data((shouldRequest ? "shouldRequest\n" : "unnecessary\n").utf8))
            }
        }
    }
}
