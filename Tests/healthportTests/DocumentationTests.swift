import Foundation
import Testing
import HealthTestSupport

/// Keeps the man pages, the README and the guides in `docs/` honest: every command documented,
/// every option named, every link leading somewhere, every example run (the jq man-page-tests
/// idea). The pages and guides are found by listing `man/` and `docs/`, so a new one is checked
/// without being named here.
@Suite(.serialized) struct DocumentationTests {
    static let root = Fixtures.packageRoot

    static func page(_ name: String, section: Int = 1) throws -> String {
        try String(contentsOf: root.appendingPathComponent("man/man\(section)/\(name).\(section)"), encoding: .utf8)
    }

    /// Every man page, as `manN/NAME.N` under `man/`, from a listing of its section folders.
    static let manPages: [String] = {
        let man = root.appendingPathComponent("man")
        var pages: [String] = []
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: man.path)) ?? []
        for folder in folders.sorted() where folder.hasPrefix("man") {
            let section = folder.dropFirst(3)
            guard !section.isEmpty, section.allSatisfy(\.isNumber) else { continue }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: man.appendingPathComponent(folder).path)) ?? []
            for name in names.sorted() where name.hasSuffix(".\(section)") { pages.append("\(folder)/\(name)") }
        }
        return pages
    }()

    /// The README, CONTRIBUTING.md, and every Markdown file under `docs/`, as paths from the
    /// package root, from a listing of `docs/`.
    static let documents: [String] = {
        var documents = ["README.md", "CONTRIBUTING.md"]
        let docs = root.appendingPathComponent("docs")
        if let walker = FileManager.default.enumerator(atPath: docs.path) {
            var found: [String] = []
            for case let path as String in walker where path.hasSuffix(".md") { found.append("docs/" + path) }
            documents += found.sorted()
        }
        return documents
    }()

    static func text(_ document: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
    }

    @Test func thePagesAndGuidesAreFound() {
        #expect(Self.manPages.contains("man1/healthport.1"), "\(Self.manPages)")
        #expect(Self.manPages.contains("man7/healthport-predicates.7"), "\(Self.manPages)")
        #expect(Self.manPages.contains { $0.hasPrefix("man5/") }, "\(Self.manPages)")
        #expect(Self.documents.contains("docs/ARCHITECTURE.md"), "\(Self.documents)")
        #expect(Self.documents.count > 3, "\(Self.documents)")
    }

    /// Every module under `Sources/` has its row in the architecture's table of modules (found
    /// by listing `Sources/`, so a new module is checked without being named here).
    @Test func everyModuleIsInTheArchitecture() throws {
        let architecture = try Self.text("docs/ARCHITECTURE.md")
        let table = architecture.components(separatedBy: "\n").filter { $0.hasPrefix("| `") }.joined(separator: "\n")
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path)
        #expect(modules.contains("HealthJSON"))
        for module in modules where !module.hasPrefix(".") {
            #expect(table.contains("`\(module)`"), "docs/ARCHITECTURE.md's table of modules has no row for \(module)")
        }
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
            // The section links to the command's page.
            let section = readme.components(separatedBy: "## `healthport \(name)`").dropFirst().first?
                .components(separatedBy: "\n## ").first ?? ""
            #expect(section.contains("(man/man1/healthport-\(name).1)"), "the README section for \(name) does not link its page")
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
            contentsOf: Self.root.appendingPathComponent("Sources/HealthportCommandLine/Support/ExitStatus.swift"), encoding: .utf8)
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
    static let hasSQLite3 = FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")

    /// Every page's examples. A command's page (section 1) shows at least one; the formats and
    /// the store's pages (section 5) may show none.
    @Test(.enabled(if: hasJQ, "jq is not installed: examples not run"), arguments: manPages)
    func manPageExamplesPrintWhatThePageSays(page: String) throws {
        let text = try Self.text("man/" + page)
        let examples = Self.examples(in: text, blockStart: ".Bd -literal", blockEnd: ".Ed")
        if page.hasPrefix("man1/") || page.hasPrefix("man7/") { #expect(!examples.isEmpty, "\(page) shows no example") }
        for example in examples { try Self.run(example, source: page) }
    }

    /// Every example of the README and of every guide, in the order the document shows them (a
    /// later example may read what an earlier one of the same document wrote).
    @Test(.enabled(if: hasJQ && hasSQLite3, "jq or sqlite3 is not installed: examples not run"), arguments: documents)
    func documentExamplesPrintWhatTheDocumentSays(document: String) throws {
        let examples = Self.examples(in: try Self.text(document), blockStart: "```", blockEnd: "```")
        if document == "README.md" { #expect(examples.count >= 17, "one example a command, at least") }
        for example in examples { try Self.run(example, source: document) }
    }

    /// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
    static func anchor(_ heading: String) -> String {
        var text = heading.replacingOccurrences(of: "`", with: "")
        // A link in a heading reads as its text.
        while let open = text.range(of: "]("), let close = text.range(of: ")", range: open.upperBound..<text.endIndex),
            let bracket = text.range(of: "[", options: .backwards, range: text.startIndex..<open.lowerBound)
        {
            text.replaceSubrange(bracket.lowerBound..<close.upperBound, with: text[bracket.upperBound..<open.lowerBound])
        }
        return String(text.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == " " })
            .replacingOccurrences(of: " ", with: "-")
    }

    /// The anchors of a Markdown document's headings (outside fenced blocks), numbered as GitHub
    /// numbers repeated ones.
    static func anchors(in text: String) -> Set<String> {
        var anchors = Set<String>()
        var seen: [String: Int] = [:]
        var fenced = false
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") { fenced.toggle(); continue }
            guard !fenced, line.hasPrefix("#") else { continue }
            let heading = line.drop { $0 == "#" }
            guard heading.hasPrefix(" ") else { continue }
            let base = anchor(heading.trimmingCharacters(in: .whitespaces))
            let count = seen[base, default: 0]
            seen[base] = count + 1
            anchors.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return anchors
    }

    /// The relative links of a Markdown document (outside fenced blocks and code spans): `[text](target)`.
    static func relativeLinks(in text: String) -> [String] {
        var links: [String] = []
        var fenced = false
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") { fenced.toggle(); continue }
            guard !fenced else { continue }
            // Drop code spans, whose brackets are not links.
            let parts = line.components(separatedBy: "`")
            let prose = stride(from: 0, to: parts.count, by: 2).map { parts[$0] }.joined(separator: " ")
            var rest = Substring(prose)
            while let open = rest.range(of: "](") {
                rest = rest[open.upperBound...]
                guard let close = rest.firstIndex(of: ")") else { break }
                let target = String(rest[..<close])
                rest = rest[close...]
                if target.contains("://") || target.hasPrefix("mailto:") || target.contains(" ") { continue }
                links.append(target)
            }
        }
        return links
    }

    /// Every relative link of the README and the guides leads to a file of the repository, and a
    /// `#fragment` to a heading of the Markdown file it names.
    @Test(arguments: documents)
    func relativeLinksLeadSomewhere(document: String) throws {
        let text = try Self.text(document)
        let folder = URL(fileURLWithPath: document).deletingLastPathComponent().relativePath
        for link in Self.relativeLinks(in: text) {
            let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let path = String(parts[0])
            let target = path.isEmpty ? document : (folder == "." ? path : folder + "/" + path)
            let url = Self.root.appendingPathComponent(target).standardizedFileURL
            #expect(url.path.hasPrefix(Self.root.standardizedFileURL.path), "\(document): \(link) leaves the repository")
            #expect(FileManager.default.fileExists(atPath: url.path), "\(document): \(link) leads nowhere")
            if parts.count == 2, target.hasSuffix(".md"), let linked = try? String(contentsOf: url, encoding: .utf8) {
                #expect(Self.anchors(in: linked).contains(String(parts[1])), "\(document): \(link): no such heading")
            }
        }
    }

    @Test func anchorsAreGitHubs() {
        #expect(Self.anchor("`healthport convert`") == "healthport-convert")
        #expect(Self.anchor("Keeping it running: watching a folder and following the store")
            == "keeping-it-running-watching-a-folder-and-following-the-store")
        #expect(Self.anchor("Parsers: healthport's scanner, libxml2 as the reference") == "parsers-healthports-scanner-libxml2-as-the-reference")
        #expect(Self.relativeLinks(in: "a [b](c.md#d) `[e](f)` [g](https://h) ![i](j.png)") == ["c.md#d", "j.png"])
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/mandoc"), "mandoc is not installed"))
    func manPagesLintClean() throws {
        #expect(Self.manPages.count > 3)
        let result = try CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/mandoc"), ["-T", "lint", "-W", "warning"] + Self.manPages.map { "man/" + $0 },
            currentDirectory: Self.root)
        #expect(result.status == 0, "\(result.stdoutText)\(result.stderrText)")
    }
}
