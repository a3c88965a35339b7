import ArgumentParser
import HealthEngine

/// Where one night ends and the next begins: the option `sleep` and `days` share, with the one
/// parse and the one message for a time that is not one.
package struct EveningOption: ParsableArguments {
    package init() {}

    @Option(name: .long, help: ArgumentHelp("Where one night ends and the next begins, local time (default 18:00).", valueName: "HH:MM"))
    package var evening: String = "18:00"

    /// The boundary, in seconds after local midnight.
    ///
    /// - Throws: `ValidationError` naming `--evening` when the text is not a time of day. The
    ///   commands call it from their own `validate()`, after their other checks, so the first
    ///   fault reported stays theirs.
    package func seconds() throws -> Int {
        guard let seconds = SummarySettings.eveningSeconds(parsing: evening) else {
            throw ValidationError("--evening: '\(evening.prefix(40))' is not a time of day such as 18:00")
        }
        return seconds
    }
}
