import ArgumentParser

/// The assistant server's options, declared once for both executables: `healthport mcp` (which
/// shows them in its help and runs `healthport-mcp` with them) and `healthport-mcp` (which
/// serves).
package struct MCPOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp("Serve this export (zip, folder or export.xml) instead of the store.", valueName: "export"),
        completion: .file(extensions: ["zip", "xml"]))
    package var export: String? = nil

    @OptionGroup package var parsing: ParserOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The store (default: $HEALTHPORT_STORE, else ~/.local/share/healthport/health.sqlite).", valueName: "path"))
    package var store: String? = nil

    @Option(
        name: .long, help: ArgumentHelp("The assistant's policy file (healthport-policy(5)); created when the person first answers.", valueName: "file"),
        completion: .file(extensions: ["json"]))
    package var policy: String

    @Option(name: .long, help: ArgumentHelp("The consumer's name for a new policy file (default: the client's name).", valueName: "name"))
    package var consumer: String? = nil

    package init() {}

    package func validate() throws {
        if export != nil && store != nil { throw ValidationError("give an export or --store, not both") }
        if export == "-" { throw ValidationError("standard input carries the protocol: give the export as a file") }
    }

    /// The abstract and discussion both executables show.
    package static let abstract = "Serve the store to an AI assistant over MCP (stdio), asking the person first, as HealthKit does."
    package static let discussion = """
        A Model Context Protocol server on standard input and output, for an assistant's client to launch. \
        The assistant reads only what the policy file lets its consumer read, and asks the person (MCP \
        elicitation) before the policy changes. See healthport-mcp(1).
        """
}
