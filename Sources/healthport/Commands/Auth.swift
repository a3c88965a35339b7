import ArgumentParser
import Foundation
import HealthEngine
import HealthModel
import HealthQuery

extension Healthport {
    /// `healthport auth`: the consumer's authorization policy, with HealthKit's model.
    struct Auth: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decide what a consumer (app, clinician, study) may read and share.",
            discussion: "Manages a policy file (healthport-policy(5)) the way HealthKit manages an app's authorization. See healthport-auth(1).",
            subcommands: [Status.self, RequestStatus.self, Request.self, RequestPerObject.self])
    }
}

/// The `--policy` every auth subcommand takes.
struct PolicyFileOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The policy file.", valueName: "file"), completion: .file(extensions: ["json"]))
    var policy: String
}

/// Type lists as `--read A,B --share C`.
struct RequestedTypes: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Types to read; repeat or separate with commas.", valueName: "types"))
    var read: [String] = []

    @Option(name: .long, help: ArgumentHelp("Types to share (save); repeat or separate with commas.", valueName: "types"))
    var share: [String] = []

    /// The identifiers, in the order given (the sheet asks in that order), without repeats.
    func resolved() throws -> (share: [String], read: [String]) {
        func ordered(_ names: [String]) throws -> [String] {
            var seen = Set<String>()
            var result: [String] = []
            for name in names.flatMap({ $0.split(separator: ",").map(String.init) }) {
                for identifier in try TypeNameResolver.resolve([name]).sorted() where seen.insert(identifier).inserted {
                    result.append(identifier)
                }
            }
            return result
        }
        return (try ordered(share), try ordered(read))
    }
}

extension Healthport.Auth {
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the sharing status of types: notDetermined, sharingDenied or sharingAuthorized.",
            discussion: "Like HealthKit's authorizationStatus(for:), this never reveals whether reading was allowed.")

        @OptionGroup var policyFile: PolicyFileOption

        @Argument(help: ArgumentHelp("Type names (StepCount, HKQuantityTypeIdentifierBodyMass, …).", valueName: "type"))
        var types: [String]

        func run() throws {
            try Diagnostics().run {
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

    struct RequestStatus: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "request-status",
            abstract: "Print shouldRequest when a request for these types would ask anything, else unnecessary.")

        @OptionGroup var policyFile: PolicyFileOption
        @OptionGroup var requested: RequestedTypes

        func run() throws {
            try Diagnostics().run {
                let (share, read) = try requested.resolved()
                let shouldRequest = try AuthorizationRequest.shouldRequest(policyFile: policyFile.policy, share: share, read: read)
                FileHandle.standardOutput.write(Data((shouldRequest ? "shouldRequest\n" : "unnecessary\n").utf8))
            }
        }
    }

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

        @Flag(name: .long, help: "Allow every undecided type without asking (no terminal needed).")
        var grant = false

        @Flag(name: .long, help: "Deny every undecided type without asking.")
        var deny = false

        func validate() throws {
            if grant && deny { throw ValidationError("--grant and --deny exclude each other") }
        }

        func run() throws {
            try Diagnostics().run {
                let (share, read) = try requested.resolved()
                let request = AuthorizationRequestRun(
                    policyFile: policyFile.policy, share: share, read: read,
                    newConsumer: consumer.map { AuthorizationPolicy.Consumer(name: $0, bundleIdentifier: bundleIdentifier) },
                    ownSources: ownSource)
                // The sheet is shown only when a type is undecided (HealthKit asks nothing otherwise).
                try request.run { questions in
                    if grant || deny { return .all(questions, allow: grant) }
                    let sheet = TerminalAuthorizationSheet()
                    guard sheet.isInteractive else {
                        throw QueryError(.errorInvalidArgument, "standard input is not a terminal: answer with --grant or --deny")
                    }
                    return sheet.ask(questions)
                }
            }
        }
    }

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

        @Flag(name: .long, help: "Allow every offered object without asking.")
        var grant = false

        @Flag(name: .long, help: "Deny every offered object without asking.")
        var deny = false

        func validate() throws {
            if grant && deny { throw ValidationError("--grant and --deny exclude each other") }
        }

        func run() throws {
            try Diagnostics().run {
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
                        FileHandle.standardError.write(Data("healthport: no \(TypeCatalogue.shortName(of: identifier)) objects to offer\n".utf8))
                        return [:]
                    }
                    if grant || deny { return Dictionary(offer.objects.map { ($0.uuid, grant) }, uniquingKeysWith: { first, _ in first }) }
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
