import ArgumentParser
import Foundation
import HealthEngine
import HealthExport

extension ExportXMLParser: ExpressibleByArgument {}

/// `--parser`: which parser reads the body of export.xml, for every command that reads an export.
package struct ParserOptions: ParsableArguments {
    package init() {}

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The parser of export.xml: scanner (healthport's own, the default) or libxml2 (the reference). Both read the same objects, warnings and errors.",
            valueName: "parser"))
    package var parser: ExportXMLParser = .scanner
}

extension ParserOptions {
    /// How the command's runs read exports: the parser asked for, and the zip expansion limit
    /// from `HEALTHPORT_MAX_EXPANSION`. Read here, by the face, and handed to each run
    /// (`ReadOptions`): nothing below the faces reads arguments or the environment.
    package var reading: ReadOptions {
        var options = ReadOptions(parser: parser)
        if let text = ProcessInfo.processInfo.environment["HEALTHPORT_MAX_EXPANSION"], let ratio = UInt64(text), ratio > 0 {
            options.maximumExpansion = ratio
        }
        return options
    }
}
