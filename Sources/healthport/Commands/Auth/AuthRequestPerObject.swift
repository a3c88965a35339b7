import ArgumentParser
import Foundation
import HealthEngine
import HealthModel
import HealthQuery
import HealthportCommandLine

extension Healthport.Auth {
    struct RequestPerObject: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "request-per-object",
            abstract: "Offer the export's objects of a per-object type (vision prescriptions) one by one.",
            discussion: "Always asks, even when asked before. Cancelling leaves the policy unchanged.")

        @OptionGroup var policyFile: PolicyFileOption
        @OptionGroup var input: InputOptions

        @Option(name: .long, help: ArgumentHelp("The per-object type (VisionPrescription).", valueName: "type"))
        var type: String

        @Option(name: .long, help: ArgumentHelp("Offer only objects matching this predicate.", valueName: "predicate"))
        var `where`: String? = nil

        @OptionGroup var answer: SheetAnswerOptions

        @OptionGroup var diagnostics: DiagnosticFormatOption

        func run() throws {
            try Diagnostics(format: diagnostics.diagnosticFormat).run {
                guard let identifier = try TypeNameResolver.resolve([type]).first else {
                    throw AuthorizationError(.errorInvalidArgument, "\(type) is not authorized object by object", argument: .perObjectType)
                }
                var query = ObjectQuery(types: [identifier])
                query.predicate = try self.where.map { try PredicateParser.parse($0) }
                var request = PerObjectRequestRun(policyFile: policyFile.policy, input: .export(input.export), type: identifier, query: query)
                request.reading = input.parsing.reading
                // The sheet is shown every time, even when answered before (HealthKit always asks).
                try request.run(cancellation: Signals.cancellation) { offer in
                    if offer.objects.isEmpty {
                        Diagnostics(format: diagnostics.diagnosticFormat).note("no \(TypeCatalogue.shortName(of: identifier)) objects to offer")
                        return [:]
                    }
                    if let allow = answer.answerForAll { return Dictionary(offer.objects.map { ($0.uuid, allow) }, uniquingKeysWith: { first, _ in first }) }
                    let sheet = TerminalAuthorizationSheet()
                    guard sheet.isInteractive else {
                        throw QueryError(.errorInvalidArgument, "standard input is not a terminal: answer with --grant or --deny")
                    }
                    return sheet.offer(offer)
                }
            }
        }
    }
}
