import ArgumentParser
import HealthQuery

/// The `--policy` every auth subcommand takes.
package struct PolicyFileOption: ParsableArguments {
    package init() {}

    @Option(name: .long, help: ArgumentHelp("The policy file.", valueName: "file"), completion: .file(extensions: ["json"]))
    package var policy: String
}

/// `--grant` and `--deny`: one answer for every question the sheet would ask, so no terminal is
/// needed (scripts, CI); neither: the sheet asks in the terminal.
package struct SheetAnswerOptions: ParsableArguments {
    package init() {}

    @Flag(name: .long, help: "Allow everything the sheet would ask about, without asking (no terminal needed).")
    package var grant = false

    @Flag(name: .long, help: "Deny everything the sheet would ask about, without asking.")
    package var deny = false

    package func validate() throws {
        if grant && deny { throw ValidationError("--grant and --deny exclude each other") }
    }

    /// The answer to every question, or `nil` when the sheet is to ask.
    package var answerForAll: Bool? { grant ? true : deny ? false : nil }
}

/// Type lists as `--read A,B --share C`.
package struct RequestedTypes: ParsableArguments {
    package init() {}

    @Option(name: .long, help: ArgumentHelp("Types to read; repeat or separate with commas.", valueName: "types"))
    package var read: [String] = []

    @Option(name: .long, help: ArgumentHelp("Types to share (save); repeat or separate with commas.", valueName: "types"))
    package var share: [String] = []

    /// The identifiers, in the order given (the sheet asks in that order), without repeats.
    package func resolved() throws -> (share: [String], read: [String]) {
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
