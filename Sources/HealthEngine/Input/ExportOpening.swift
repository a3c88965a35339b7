import Foundation
import HealthExport

extension ExportReader {
    /// Opens the export a run names (a path, or `-` for standard input), to be read with
    /// `jobs` threads: by default every core, so a zip is inflated while it is parsed.
    static func open(_ argument: String, jobs: Int? = nil) throws -> ExportReader {
        let reader = try ExportReader(ExportInput(argument: argument))
        reader.jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        return reader
    }
}
