import ArgumentParser
import Foundation
import HealthEngine
import HealthQuery
import HealthportCommandLine

extension Healthport {
    /// `healthport info`: what an export or the store holds.
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Describe an export or the store: dates, counts per type, sources, devices, side files, quirks.",
            discussion: "A table on standard output, or one JSON document with --format json. See healthport-info(1).")

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case text, json
        }

        @OptionGroup var input: ExportOrStoreOptions

        @Option(name: .shortAndLong, help: "Output format: text (default) or json.")
        var format: Format = .text

        @Flag(name: .long, help: "Also read export_cda.xml and count its observations by type (it can be gigabytes).")
        var cda = false

        @Option(
            name: .long,
            help: ArgumentHelp("Describe only this type (which sources and devices wrote it, when); repeat or separate with commas.", valueName: "type"))
        var type: [String] = []

        @Option(
            name: .long, help: ArgumentHelp("Describe only what the consumer of this policy file may read; see healthport-policy(5).", valueName: "file"),
            completion: .file(extensions: ["json"]))
        var policy: String? = nil

        @Flag(
            name: .long,
            help: "Print what the export covers instead: per type, first and last day, days with data, samples, and heart rate wear time (hours worn and their share).")
        var coverage = false

        @OptionGroup var diagnostics: DiagnosticOptions

        func run() throws {
            let log = Diagnostics(diagnostics)
            try log.run {
                var query = ObjectQuery()
                if !type.isEmpty { query.types = try TypeNameResolver.resolve(type) }
                if let policy { query.policy = try AuthorizationPolicy.load(from: policy) }
                var run = InventoryRun(input: input.objectInput, query: query)
                run.includeCDA = cda
                run.reading = input.parsing.reading
                run.includeCoverage = coverage
                let info = try log.perform(showing: diagnostics) { try run.run(reporter: $0, cancellation: $1) }
                let text: String
                if coverage {
                    text = format == .json ? try info.coverageJSON() : info.coverageText()
                } else {
                    text = format == .json ? try info.json() : info.text()
                }
                FileHandle.standardOutput.write(Data(text.utf8))
            }
        }
    }
}
