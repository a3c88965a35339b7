import Foundation
import Testing
import HealthTestSupport

/// What a new user runs into in the README, its install guide (`docs/install.md`), the
/// assistant's guide (`docs/assistant.md`) and the scripts: an install that works on a fresh
/// machine, first commands that work as shown, the assistant's set-up, outside tools pinned.
/// (That the Quick start works on a fresh Debian is `Scripts/check-quick-start.sh`'s, which CI
/// runs; these tests keep the text it runs honest.)
@Suite struct InstallDocumentationTests {
    static let root = Fixtures.packageRoot

    static func readme() throws -> String {
        try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    }

    static func installGuide() throws -> String {
        try String(contentsOf: root.appendingPathComponent("docs/install.md"), encoding: .utf8)
    }

    /// The text of a section, from its heading to the next heading of its level or above.
    static func section(_ heading: String, in text: String) -> String? {
        let level = heading.prefix { $0 == "#" }
        guard let body = text.components(separatedBy: "\n" + heading + "\n").dropFirst().first else { return nil }
        var lines: [Substring] = []
        var fenced = false
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle() }
            let hashes = line.prefix { $0 == "#" }.count
            if !fenced, hashes > 0, hashes <= level.count, line.dropFirst(hashes).hasPrefix(" ") { break }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The lines of the first fenced block after a heading.
    static func firstBlock(after heading: String, in text: String) -> [String] {
        guard let start = text.range(of: "\n" + heading + "\n") else { return [] }
        let rest = text[start.upperBound...]
        guard let open = rest.range(of: "```") else { return [] }
        let body = rest[open.upperBound...].drop { $0 != "\n" }.dropFirst()
        guard let close = body.range(of: "```") else { return [] }
        return body[..<close.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }

    /// Every Debian package `Package.swift` names as a provider of a system library.
    static func aptProviders() throws -> Set<String> {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var packages = Set<String>()
        var rest = Substring(manifest)
        while let range = rest.range(of: ".apt([") {
            rest = rest[range.upperBound...]
            guard let end = rest.firstIndex(of: "]") else { break }
            for part in rest[..<end].split(separator: ",") {
                packages.insert(part.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")))
            }
        }
        return packages
    }

    @Test func everyAptLineInstallsEveryLibraryThePackageBuildsWith() throws {
        let providers = try Self.aptProviders()
        #expect(providers.contains("libzstd-dev"))
        let readmeLines = try Self.readme().components(separatedBy: "\n").filter { $0.hasPrefix("apt-get install -y lib") }
        let guideLines = try Self.installGuide().components(separatedBy: "\n").filter { $0.hasPrefix("apt-get install -y lib") }
        #expect(readmeLines.count >= 1, "the Quick start's")
        #expect(guideLines.count >= 1, "docs/install.md's From source")
        for line in readmeLines + guideLines {
            for package in providers { #expect(line.contains(package), "\(line) lacks \(package)") }
        }
    }

    @Test func theTarballSectionNamesEveryLibraryTheBinaryLoads() throws {
        let readelf = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["readelf", "-d", healthportBinary.path])
        try #require(readelf.status == 0, "readelf: \(readelf.stderrText)")
        let toolchain = ["libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime", "libicu"]
        let system = ["libc.so", "libm.so", "libstdc++.so", "libgcc_s.so", "ld-linux", "libpthread.so", "libdl.so", "librt.so", "libutil.so"]
        let needed = readelf.stdoutText.components(separatedBy: "\n").compactMap { line -> String? in
            guard let open = line.range(of: "Shared library: ["), let close = line.range(of: "]", range: open.upperBound..<line.endIndex) else { return nil }
            return String(line[open.upperBound..<close.lowerBound])
        }.filter { name in !(toolchain + system).contains { name.hasPrefix($0) } }
        #expect(needed.contains("libzstd.so.1"))
        let sections = [
            ("README.md", try #require(Self.section("### Other Linux distributions: the tarball", in: try Self.readme()))),
            ("docs/install.md", try #require(Self.section("## Other Linux distributions: the tarball", in: try Self.installGuide()))),
        ]
        for (document, section) in sections {
            for library in needed { #expect(section.contains("`\(library)`"), "\(document): the tarball section does not name \(library)") }
        }
    }

    @Test func theQuickStartLeavesAHealthportToCall() throws {
        let lines = Self.firstBlock(after: "## Quick start", in: try Self.readme())
        let build = try #require(lines.firstIndex { $0.hasPrefix("swift build") }, "no build in \(lines)")
        let configuration = lines[build].contains("-c release") ? "release" : "debug"
        let path = try #require(lines.firstIndex { $0.hasPrefix("export PATH=") && $0.contains(".build/\(configuration)") }, "no PATH for .build/\(configuration)")
        let call = try #require(lines.firstIndex { $0.hasPrefix("healthport ") })
        #expect(build < path && path < call)
        // The script CI runs extracts the same lines.
        let printed = try CommandRunner.run(
            URL(fileURLWithPath: "/bin/bash"), [Self.root.appendingPathComponent("Scripts/check-quick-start.sh").path, "--print"])
        #expect(printed.status == 0, "\(printed.stderrText)")
        #expect(printed.stderrText.contains(lines.map { "    " + $0 }.joined(separator: "\n")), "\(printed.stderrText)")
    }

    @Test(arguments: [("README.md", "### Debian and Ubuntu: the package"), ("docs/install.md", "## Debian and Ubuntu: the package")])
    func thePackageIsMadeBeforeItIsInstalled(document: String, heading: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
        let lines = Self.firstBlock(after: heading, in: text)
        let make = try #require(lines.firstIndex { $0.hasPrefix("Scripts/package-deb.sh") }, "\(document): \(lines)")
        let install = try #require(lines.firstIndex { $0.hasPrefix("apt install ./dist/healthport_") }, "\(document): \(lines)")
        #expect(make < install)
        // The file it installs is the one the script writes (dist/healthport_VERSION-1_ARCH.deb).
        let version = try healthport("--version").stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(lines[install].contains("healthport_\(version)-1_"), "\(document)")
    }

    @Test func theAssistantsSetUpSaysWhereWhatAndHow() throws {
        let guide = try String(contentsOf: Self.root.appendingPathComponent("docs/assistant.md"), encoding: .utf8)
        let section = try #require(Self.section("## Setting it up", in: guide))
        for needed in [
            "~/Library/Application Support/Claude/claude_desktop_config.json",  // macOS
            "%APPDATA%\\Claude\\claude_desktop_config.json",  // Windows
            "~/.config/Claude/claude_desktop_config.json",  // Linux
            "absolute",  // desktop clients do not read the shell's PATH
            "healthport import export.zip --store",  // a store first
            "elicitation",
            "healthport auth request --policy",  // the terminal route
        ] {
            #expect(section.contains(needed), "docs/assistant.md's set-up lacks \(needed)")
        }
        #expect(section.contains("\"command\": \"/usr/bin/healthport\""), "the example's command is a bare name")
        // The README's example, too.
        let readme = try #require(Self.section("## `healthport mcp`", in: try Self.readme()))
        #expect(readme.contains("\"command\": \"/usr/bin/healthport\""), "the README's example's command is a bare name")
    }

    @Test func outsideToolsArePinnedToAMajorVersion() throws {
        var scripts: [URL] = []
        for folder in ["Scripts", "Benchmarks"] {
            let url = Self.root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) where name.hasSuffix(".sh") {
                scripts.append(url.appendingPathComponent(name))
            }
        }
        var checked = Set<String>()
        for script in scripts {
            for line in try String(contentsOf: script, encoding: .utf8).components(separatedBy: "\n") where line.contains("pip\" install") {
                for word in line.split(separator: " ") {
                    let requirement = word.trimmingCharacters(in: CharacterSet(charactersIn: "'\";"))
                    let name = String(requirement.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
                    guard ["mcp", "pyspark", "pyarrow", "duckdb"].contains(name) else { continue }
                    checked.insert(name)
                    #expect(requirement.contains(">=") && requirement.contains(",<"), "\(script.lastPathComponent): \(requirement) is not pinned to a major version")
                }
            }
        }
        #expect(checked == ["mcp", "pyspark", "pyarrow", "duckdb"])
    }
}
