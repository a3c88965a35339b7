import Foundation
import Testing
import HealthTestSupport

/// Keeps the man pages and the README honest: every command documented, every option named,
/// every example run (the jq man-page-tests idea).
@Suite(.serialized) struct DocumentationTests {
    static let root = Fixtures.packageRoot

    static func page(_ name: String, section: Int = 1) throws -> String {
        try String(contentsOf: root.appendingPathComponent("man/man\(section)/\(name).\(section)"), encoding: .utf8)
    }

    static func subcommands() throws -> [[String: Any]] {
        let result = try healthport("--experimental-dump-help")
        let tool = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let command = try #require(tool["command"] as? [String: Any])
        let subcommands = try #require(command["subcommands"] as? [[String: Any]])
        return subcommands.filter { ($0["commandName"] as? String) != "help" }
    }

    @Test func everyCommandHasAPageAndAReadmeSection() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let overview = try Self.page("healthport")
        for command in try Self.subcommands() {
            let name = try #require(command["commandName"] as? String)
            #expect((try? Self.page("healthport-\(name)")) != nil, "no man/man1/healthport-\(name).1")
            #expect(readme.contains("## `healthport \(name)`"), "no README section for \(name)")
            #expect(overview.contains(".It Cm \(name)"), "healthport(1) does not list \(name)")
        }
    }

    /// One exit-status table: healthport(1) and the README list the same statuses, every one
    /// that `ExitStatus` defines.
    @Test func theExitStatusTableIsTheSameEverywhere() throws {
        let page = try Self.page("healthport")
        let section = page.components(separatedBy: ".Sh EXIT STATUS")[1].components(separatedBy: ".Sh ")[0]
        var inPage = Set<Int>()
        for line in section.components(separatedBy: "\n") where line.hasPrefix(".It ") {
            for part in line.dropFirst(4).split(separator: " ") { if let n = Int(part) { inPage.insert(n) } }
        }
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        var inReadme = Set<Int>()
        for line in readme.components(separatedBy: "\n") where line.hasPrefix("| ") {
            let first = line.dropFirst(2).split(separator: "|")[0]
            for part in first.split(separator: ",") { if let n = Int(part.trimmingCharacters(in: .whitespaces)) { inReadme.insert(n) } }
        }
        let defined: Set<Int> = [0, 3, 64, 65, 66, 70, 73, 74, 75, 77, 78, 129, 130, 143]
        #expect(inPage == defined)
        #expect(inReadme == defined)
        let source = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/healthport/Support/ExitStatus.swift"), encoding: .utf8)
        for status in defined where status < 129 && status != 0 {
            #expect(source.contains("= \(status)"), "ExitStatus lacks \(status)")
        }
    }

    @Test func everyOptionAppearsInItsPage() throws {
        // A command group's subcommands are documented in the group's page.
        var commands: [(String, [String: Any])] = []
        for command in try Self.subcommands() {
            let name = try #require(command["commandName"] as? String)
            commands.append((name, command))
            for sub in command["subcommands"] as? [[String: Any]] ?? [] where sub["commandName"] as? String != "help" {
                commands.append((name, sub))
            }
        }
        for (name, command) in commands {
            let page = try Self.page("healthport-\(name)")
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                for spelling in argument["names"] as? [[String: Any]] ?? [] {
                    guard let option = spelling["name"] as? String, spelling["kind"] as? String == "long",
                        option != "help", option != "version"
                    else { continue }
                    #expect(page.contains("Fl -\(option)"), "healthport-\(name)(1) does not document --\(option)")
                }
            }
        }
    }

    /// `$ healthport …` blocks: the command, then exactly what it prints.
    static func examples(in text: String, blockStart: String, blockEnd: String) -> [(command: String, output: [String])] {
        var examples: [(String, [String])] = []
        var inBlock = false
        var current: (String, [String])? = nil
        for line in text.components(separatedBy: "\n") {
            if inBlock && line.hasPrefix(blockEnd) {
                inBlock = false
                if let example = current { examples.append(example) }
                current = nil
                continue
            }
            if !inBlock && line.hasPrefix(blockStart) {
                inBlock = true
                continue
            }
            guard inBlock else { continue }
            if line.hasPrefix("$ ") && line.contains("healthport ") {
                if let example = current { examples.append(example) }
                current = (String(line.dropFirst(2)), [])
            } else if current != nil {
                current!.1.append(line)
            }
        }
        return examples
    }

    static func run(_ example: (command: String, output: [String]), source: String) throws {
        let path = healthportBinary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let script = "export PATH='\(path)'; " + example.command
        // Bounded: an example that waits for something (`until …; do sleep; done`) and never
        // sees it fails after two minutes instead of holding the test run forever.
        let result = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/timeout"), ["120", "/bin/bash", "-c", script], currentDirectory: root)
        #expect(result.status == 0, "\(source): \(example.command): \(result.stderrText)")
        let expected = example.output.joined(separator: "\n")
        // CSV ends records with CRLF (RFC 4180); a page shows lines.
        let stdout = result.stdoutText.replacingOccurrences(of: "\r\n", with: "\n")
        let actual = stdout.hasSuffix("\n") ? String(stdout.dropLast()) : stdout
        #expect(actual == expected, "\(source): \(example.command)")
    }

    static let hasJQ = FileManager.default.isExecutableFile(atPath: "/usr/bin/jq")

    @Test(.enabled(if: hasJQ, "jq is not installed: examples not run"), arguments: [
        "healthport", "healthport-convert", "healthport-info", "healthport-query", "healthport-auth", "healthport-diff",
        "healthport-anchor", "healthport-changes", "healthport-stats", "healthport-summary", "healthport-sleep", "healthport-routes", "healthport-ecg",
        "healthport-report", "healthport-clinical", "healthport-import", "healthport-mcp", "healthport-types",
        "healthport-predicates",
    ])
    func manPageExamplesPrintWhatThePageSays(page: String) throws {
        let text = try Self.page(page, section: page == "healthport-predicates" ? 7 : 1)
        let examples = Self.examples(in: text, blockStart: ".Bd -literal", blockEnd: ".Ed")
        #expect(!examples.isEmpty)
        for example in examples { try Self.run(example, source: page) }
    }

    static let hasSQLite3 = FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")

    @Test(.enabled(if: hasJQ && hasSQLite3, "jq or sqlite3 is not installed: examples not run"))
    func readmeExamplesPrintWhatTheReadmeSays() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let examples = Self.examples(in: text, blockStart: "```", blockEnd: "```")
        #expect(examples.count >= 2)
        for example in examples { try Self.run(example, source: "README.md") }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/mandoc"), "mandoc is not installed"))
    func manPagesLintClean() throws {
        let pages = [
            "man1/healthport.1", "man1/healthport-convert.1", "man1/healthport-info.1", "man1/healthport-query.1",
            "man1/healthport-auth.1", "man1/healthport-diff.1", "man1/healthport-anchor.1", "man1/healthport-changes.1",
            "man1/healthport-stats.1", "man1/healthport-routes.1", "man1/healthport-ecg.1", "man1/healthport-report.1", "man1/healthport-clinical.1",
            "man1/healthport-import.1", "man1/healthport-mcp.1", "man1/healthport-types.1", "man5/healthport-formats.5", "man5/healthport-policy.5", "man5/healthport-store.5",
            "man7/healthport-predicates.7",
        ]
        let result = try CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/mandoc"), ["-T", "lint", "-W", "warning"] + pages.map { "man/" + $0 },
            currentDirectory: Self.root)
        #expect(result.status == 0, "\(result.stdoutText)\(result.stderrText)")
    }
}
