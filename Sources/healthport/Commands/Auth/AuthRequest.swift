import ArgumentParser
import Foundation
import HealthEngine
import HealthModel
import HealthQuery
import HealthportCommandLine

extension Healthport.Auth {
    struct Request: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ask the person, type by type, to allow reading and sharing; records the answers.",
            discussion: """
                Only types not yet decided are asked; a request for decided types asks nothing and \
                succeeds. Success means the request completed, not that anything was allowed.
                """)

        @OptionGroup var policyFile: PolicyFileOption
        @OptionGroup var requested: RequestedTypes

        @Option(name: .long, help: ArgumentHelp("The consumer's name, when the policy file is new.", valueName: "name"))
        var consumer: String? = nil

        @Option(name: .long, help: ArgumentHelp("The consumer's bundle identifier, when the policy file is new.", valueName: "id"))
        var bundleIdentifier: String? = nil

        @Option(name: .long, help: ArgumentHelp("A source name that is the consumer itself; repeatable.", valueName: "name"))
        var ownSource: [String] = []

        @OptionGroup var answer: SheetAnswerOptions

        @OptionGroup var diagnostics: DiagnosticFormatOption

        func run() throws {
            try Diagnostics(format: diagnostics.diagnosticFormat).run {
                let (share, read) = try requested.resolved()
                let request = AuthorizationRequestRun(
                    policyFile: policyFile.policy, share: share, read: read,
                    newConsumer: consumer.map { AuthorizationPolicy.Consumer(name: $0, bundleIdentifier: bundleIdentifier) },
                    ownSources: ownSource)
                // The sheet is shown only when a type is undecided (HealthKit asks nothing otherwise).
                try request.run { questions in
                    if let allow = answer.answerForAll { return .all(questions, allow: allow) }
                    let sheet = TerminalAuthorizationSheet()
                    guard sheet.isInteractive else {
                        throw QueryError(.errorInvalidArgument, "standard input is not a terminal: answer with --grant or --deny")
                    }
                    return sheet.ask(questions)
                }
            }
        }
    }
}
