import ArgumentParser
import HealthExport
import HealthportCommandLine

/// The `healthport` command: streams Apple Health exports into HealthKit-shaped data.
///
/// The CLI only parses arguments, wires the library modules together and maps their errors to
/// exit statuses (`ExitStatus`); it holds no logic of its own.
@main
struct Healthport: ParsableCommand {
    static let version = HealthportVersion.version

    static let configuration = CommandConfiguration(
        commandName: "healthport",
        abstract: "Stream Apple Health exports into HealthKit-shaped JSON, NDJSON, CSV and Parquet.",
        discussion: """
            Reads export.zip as the Health app writes it, the unzipped folder, a bare export.xml, \
            or - for standard input. Data goes to standard output, diagnostics to standard error. \
            See healthport(1).
            """,
        version: version,
        subcommands: [Convert.self, Query.self, Import.self, Info.self, Types.self, Stats.self, Summary.self, Days.self, Sleep.self, Workouts.self, Routes.self, ECG.self, Report.self, Clinical.self, Diff.self, Anchor.self, Changes.self, Auth.self, MCPServer.self]
    )

    /// Starts the tool; a mistyped subcommand (`conver`) gets the closest name, where
    /// ArgumentParser would say "2 unexpected arguments".
    static func main() {
        ArgumentEncoding.refuseInvalidUTF8(Self.self, tool: "healthport")
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let typed = arguments.first, !typed.hasPrefix("-") {
            // `_commandName` is the name ArgumentParser derives (convert for Convert).
            let names = configuration.subcommands.map { $0._commandName } + ["help"]
            if !names.contains(typed) {
                let hint = Suggestions.closest(to: typed, among: names).map { " (did you mean \($0)?)" } ?? ""
                exitPrintably(withError: ValidationError("unknown command '\(typed.prefix(60))'\(hint)"))
            }
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            exitPrintably(withError: error)
        }
    }
}
