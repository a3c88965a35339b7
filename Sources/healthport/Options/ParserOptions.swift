import ArgumentParser
import HealthExport

extension ExportXMLParser: ExpressibleByArgument {}

/// `--parser`: which parser reads the body of export.xml, for every command that reads an export.
struct ParserOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The parser of export.xml: scanner (healthport's own, the default) or libxml2 (the reference). Both read the same objects, warnings and errors.",
            valueName: "parser"))
    var parser: ExportXMLParser = .scanner
}

/// A command that reads exports: `Healthport.main` reads every export of its run with the
/// parser it names (`ExportReader.defaultParser`), so no run needs to pass it along.
protocol ReadsExports {
    var parsing: ParserOptions { get }
}

// The commands that read exports.
extension Healthport.Convert: ReadsExports {}
extension Healthport.Import: ReadsExports {}
extension Healthport.Diff: ReadsExports {}
extension Healthport.MCPServer: ReadsExports {}
extension Healthport.Query: ReadsExports { var parsing: ParserOptions { input.parsing } }
extension Healthport.Changes: ReadsExports { var parsing: ParserOptions { input.parsing } }
extension Healthport.Report: ReadsExports { var parsing: ParserOptions { input.parsing } }
extension Healthport.Info: ReadsExports { var parsing: ParserOptions { input.parsing } }
extension Healthport.Stats: ReadsExports { var parsing: ParserOptions { input.parsing } }
extension Healthport.Routes: ReadsExports { var parsing: ParserOptions { input.parsing } }
extension Healthport.ECG: ReadsExports { var parsing: ParserOptions { input.parsing } }
extension Healthport.Clinical: ReadsExports { var parsing: ParserOptions { input.parsing } }
extension Healthport.Anchor: ReadsExports { var parsing: ParserOptions { input.parsing } }
extension Healthport.Auth.RequestPerObject: ReadsExports { var parsing: ParserOptions { input.parsing } }
