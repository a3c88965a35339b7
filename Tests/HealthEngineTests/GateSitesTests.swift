import Foundation
import HealthTestSupport
import Testing

/// The gate is installed where objects are read, and nowhere else (issue 37): the export reader
/// builds it in front of every sink (`HealthExport/Gate`), the store in front of its rows
/// (`HealthStore/StoreQuery.swift`). A run, a face or a library user hands a query over and
/// cannot choose to skip it, because the ungated reads are internal to their modules; this test
/// keeps a new gate site from appearing elsewhere unnoticed (where a second, different gate, or
/// a forgotten one, could start).
@Suite struct GateSitesTests {
    static let allowed = ["Sources/HealthQuery/Gate/", "Sources/HealthExport/Gate/", "Sources/HealthStore/StoreQuery.swift"]

    @Test func queryGatesAreBuiltOnlyWhereObjectsAreRead() throws {
        let root = Fixtures.packageRoot
        let sources = root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 100, "the sources were found")
        var sites: [String] = []
        var allowedSites = 0
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                guard code.contains("QueryGate(") else { continue }
                if Self.allowed.contains(where: { ("Sources/" + file).hasPrefix($0) }) {
                    allowedSites += 1
                } else {
                    sites.append("Sources/\(file):\(number + 1)")
                }
            }
        }
        #expect(sites.isEmpty, "QueryGate built outside the readers: \(sites)")
        // The readers' own sites: the sequential read, the parallel read and its chunks, the ECG
        // files; the store's rows, changes and change notices.
        #expect(allowedSites >= 6)
    }

    /// The runs no longer decide by hand what a consumer may learn: the `Disclosure` of the
    /// query does.
    @Test func runsAskTheDisclosureNotWhetherThereIsAPolicy() throws {
        let engine = Fixtures.packageRoot.appendingPathComponent("Sources/HealthEngine")
        let files = try #require(FileManager.default.enumerator(atPath: engine.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        var branches: [String] = []
        for file in files {
            let text = try String(contentsOf: engine.appendingPathComponent(file), encoding: .utf8)
            for pattern in ["policy != nil", "policy == nil", "context.isUnderPolicy", "executor.isUnderPolicy", "underPolicy:"] where text.contains(pattern) {
                branches.append("\(file): \(pattern)")
            }
        }
        #expect(branches.isEmpty, "\(branches)")
    }
}

/// Configuration is passed down, never ambient (issue 37): only the faces read arguments and
/// the environment, and no module below them keeps a task-local. The parser was a `@TaskLocal`
/// the assistant's threads did not see; Parquet options, the zip expansion limit and the
/// store's location were read from the environment inside the library.
@Suite struct AmbientConfigurationTests {
    @Test func nothingBelowTheFacesReadsTheEnvironmentOrATaskLocal() throws {
        let sources = Fixtures.packageRoot.appendingPathComponent("Sources")
        // The faces (the two executables and the command line they share), and the test support
        // (which finds fixtures and runs binaries).
        let faces = ["healthport/", "healthport-mcp/", "HealthportCommandLine/", "HealthTestSupport/", "generate-export/"]
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !faces.contains(where: $0.hasPrefix) }
        #expect(files.count > 100)
        var reads: [String] = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                for pattern in ["processInfo.environment", "@TaskLocal", "getenv("] where code.contains(pattern) {
                    reads.append("\(file):\(number + 1): \(pattern)")
                }
            }
        }
        #expect(reads.isEmpty, "\(reads)")
    }
}
