import ArgumentParser
import Foundation
import HealthEngine
import HealthModel
import HealthQuery
import HealthportCommandLine

extension Healthport {
    /// `healthport types`: the types healthport knows, and how many of each an export holds.
    struct Types: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the types healthport knows: kind, canonical unit, aggregation style; with an export, how many of each it holds.",
            discussion: "A table on standard output, or one JSON document with --format json. See healthport-types(1).")

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case text, json
        }

        @Argument(
            help: ArgumentHelp("An export to count (export.zip, the unzipped folder, export.xml, or - for standard input).", valueName: "export"),
            completion: .file(extensions: ["zip", "xml"]))
        var export: String? = nil

        @Option(
            name: .long,
            help: ArgumentHelp(
                "List only this type (a name as --type takes it everywhere: StepCount, Steps, resting heart rate, a full identifier); repeat or separate with commas.",
                valueName: "type"),
            completion: .list(TypeCatalogue.shortNames))
        var type: [String] = []

        @Option(name: .shortAndLong, help: "Output format: text (default) or json.")
        var format: Format = .text

        @OptionGroup var parsing: ParserOptions

        @OptionGroup var diagnostics: DiagnosticOptions

        func run() throws {
            let log = Diagnostics(diagnostics)
            try log.run {
                let types = type.isEmpty ? nil : try TypeNameResolver.resolve(type)
                let list: TypeList
                if let export {
                    var query = ObjectQuery()
                    query.types = types
                    var run = InventoryRun(input: .export(export), query: query)
                    run.reading = parsing.reading
                    let info = try log.perform(showing: diagnostics) { try run.run(reporter: $0, cancellation: $1) }
                    list = TypeList.counting(info, only: types)
                } else {
                    list = TypeList.catalogue(only: types)
                }
                let text = format == .json ? try list.json() : list.text()
                FileHandle.standardOutput.write(Data(text.utf8))
            }
        }
    }
}
