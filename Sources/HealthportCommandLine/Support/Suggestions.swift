import ArgumentParser
import HealthModel

/// "Did you mean …?" for what a person mistyped: a subcommand, or an option that a command with
/// a list of exports would otherwise take for one (ArgumentParser suggests the others itself).
package enum Suggestions {
    /// The candidate closest to `typed`, when it is close enough to be a typo.
    package static func closest(to typed: String, among candidates: [String]) -> String? {
        let target = Array(typed.lowercased())
        var best: (String, Int)? = nil
        for candidate in candidates {
            let distance = EditDistance.between(target, Array(candidate.lowercased()))
            if distance <= max(2, target.count / 3), best.map({ distance < $0.1 }) ?? true { best = (candidate, distance) }
        }
        return best?.0
    }

    /// The long options a command's help lists (`--format`, …).
    package static func longOptions(of command: any ParsableCommand.Type) -> [String] {
        let help = command.helpMessage(columns: 1000)
        var options = Set<String>()
        var rest = Substring(help)
        while let range = rest.range(of: "--") {
            let name = rest[range.lowerBound...].prefix { $0 == "-" || $0.isLetter || $0.isNumber }
            if name.count > 2 { options.insert(String(name)) }
            rest = rest[range.upperBound...]
        }
        return options.sorted()
    }

    /// A usage error for an unknown option met among the exports.
    package static func unknownOption(_ option: String, of command: any ParsableCommand.Type) -> ValidationError {
        let name = String(option.prefix { $0 != "=" })
        let hint = closest(to: name, among: longOptions(of: command)).map { " (did you mean \($0)?)" } ?? ""
        return ValidationError("unknown option '\(name.prefix(60))'\(hint)")
    }

    /// Throws for the first `--name` among `arguments` that `command` does not have (up to a
    /// `--` that ends the options).
    package static func checkLongOptions(_ arguments: [String], of command: any ParsableCommand.Type) throws {
        let known = Set(longOptions(of: command) + ["--help", "--version"])
        for argument in arguments.dropFirst() {
            if argument == "--" { return }
            guard argument.hasPrefix("--") else { continue }
            let name = String(argument.prefix { $0 != "=" })
            if !known.contains(name) { throw unknownOption(name, of: command) }
        }
    }
}
