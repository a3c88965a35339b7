import Foundation
import HealthExport

/// How a run reads exports, as its face chose: the parser, the threads, how long to wait for a
/// FIFO's writer, how far a zip may expand.
///
/// Passed down explicitly, as swift-format hands its library a `Configuration`: only the faces
/// read arguments and the environment. The parser was once a task-local the CLI bound around
/// each command; the assistant runs tool calls on threads that do not see task-locals, so
/// `healthport mcp --parser libxml2` read with the scanner.
public struct ReadOptions: Sendable, Equatable {
    /// The parser of the document's body (`--parser`).
    public var parser: ExportXMLParser = .scanner
    /// Threads a read may use; `nil` for every core (`--jobs`).
    public var jobs: Int? = nil
    /// How long an export that is a FIFO may wait for a program to open it for writing.
    public var writerWait: TimeInterval = ExportReader.Opening.defaultWriterWait
    /// How many times a zip entry may expand (`HEALTHPORT_MAX_EXPANSION`, read by the CLI).
    public var maximumExpansion: UInt64 = ZipLimits.defaultRatio
    /// The size of the chunks a parallel read cuts; `nil` for `ExportReader.parallelChunkBytes`
    /// (tests make many chunks of small exports).
    public var parallelChunkBytes: Int? = nil

    public init(parser: ExportXMLParser = .scanner, jobs: Int? = nil) {
        self.parser = parser
        self.jobs = jobs
    }
}

extension ExportReader {
    /// Opens the export a run names (a path, or `-` for standard input), as `options` say: by
    /// default with every core, so a zip is inflated while it is parsed.
    ///
    /// - Parameter cancellation: ends the wait for a FIFO's writer (`CancellationError`).
    static func open(_ argument: String, reading options: ReadOptions, cancellation: RunCancellation? = nil) throws -> ExportReader {
        var opening = Opening()
        opening.writerWait = options.writerWait
        opening.maximumExpansion = options.maximumExpansion
        if let cancellation { opening.isCancelled = cancellation.check }
        let reader = try ExportReader(ExportInput(argument: argument), opening: opening)
        reader.jobs = options.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        reader.parser = options.parser
        return reader
    }
}
