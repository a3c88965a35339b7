import ArgumentParser
import Foundation
import HealthEngine
import HealthModel
import HealthQuery
import HealthportCommandLine

extension Healthport.Auth {
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the sharing status of types: notDetermined, sharingDenied or sharingAuthorized.",
            discussion: "Like HealthKit's authorizationStatus(for:), this never reveals whether reading was allowed.")

        @OptionGroup var policyFile: PolicyFileOption

        @Argument(help: ArgumentHelp("Type names (StepCount, HKQuantityTypeIdentifierBodyMass, …).", valueName: "type"))
        var types: [String]

        @OptionGroup var diagnostics: DiagnosticFormatOption

        func run() throws {
            try Diagnostics(format: diagnostics.diagnosticFormat).run {
                let policy = try AuthorizationPolicy.load(from: policyFile.policy)
                var lines = ""
                for name in types {
                    guard let type = try TypeNameResolver.resolve([name]).first else { continue }
                    lines += policy.shareStatus(for: type).rawValue + "\n"
                }
                FileHandle.standardOutput.write(Data(lines.utf8))
            }
        }
    }
}
