import Foundation
import HealthExport

extension ExportReader {
    /// Opens the export a run names (a path, or `-` for standard input), to be read with
    /// `jobs` threads: by default every core, so a zip is inflated while it is parsed.
    ///
    /// - Parameters:
    ///   - writerWait: how long a FIFO named by path may wait for a writer
    ///     (`ExportReader.Opening.writerWait`); the run's own option, passed down.
    ///   - cancellation: ends that wait (`CancellationError`, the run's `.cancelled`).
    static func open(
        _ argument: String, jobs: Int? = nil, writerWait: TimeInterval = Opening.defaultWriterWait,
        cancellation: RunCancellation? = nil
    ) throws -> ExportReader {
        var opening = Opening()
        opening.writerWait = writerWait
        if let cancellation { opening.isCancelled = cancellation.check }
        let reader = try ExportReader(ExportInput(argument: argument), opening: opening)
        reader.jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        return reader
    }
}
