import ArgumentParser

/// Which source counts where several cover the same time (`--source-priority`): the option
/// `stats` and the summary tables (`summary`, `sleep`, `days`, `workouts`) share, with the one
/// help and the one parse (`SourceNameList`), so every merge reads a list the same way.
package struct SourcePriorityOption: ParsableArguments {
    package init() {}

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Source names, highest priority first (default: manual entries, Apple Watch, iPhone, others); repeat or separate with commas, \\, for a comma in a name.",
            valueName: "list"))
    package var sourcePriority: [String] = []

    /// The names, highest priority first: the values' lists split, `\,` kept as a comma.
    package var names: [String] { SourceNameList.parse(sourcePriority) }
}
