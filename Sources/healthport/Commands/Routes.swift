import ArgumentParser
import HealthEngine
import HealthOutput
import HealthportCommandLine

extension Healthport {
    /// `healthport routes`: workout routes with their points, joined to their workouts.
    struct Routes: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Workout routes with their points (from the GPX files), joined to their workouts.",
            discussion: "See healthport-routes(1).")

        @OptionGroup var input: InputOptions
        @OptionGroup var filter: FilterOptions

        @Option(name: .shortAndLong, help: "Output: geojson (default), ndjson (one point per line), csv (a file per route) or gpx (the original files).")
        var format: RouteWriter.Format = .geojson

        @Option(name: .shortAndLong, help: ArgumentHelp("A file (geojson, ndjson) or a folder (csv, gpx); default standard output.", valueName: "path"))
        var output: String = "-"

        @OptionGroup var diagnostics: DiagnosticOptions

        func run() throws {
            let log = Diagnostics(diagnostics)
            try log.run {
                var run = RouteRun(export: input.export, query: try filter.makeQuery(), format: format, output: output)
                run.reading = input.parsing.reading
                let summary = try run.run(reporter: log.reporter(), cancellation: Signals.cancellation)
                log.repeats(summary.warnings)
            }
        }
    }
}

extension RouteWriter.Format: ExpressibleByArgument {}
