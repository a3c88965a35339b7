import Foundation
import Testing
import HealthTestSupport

/// Which document a folder or zip is read from, and what a path that cannot be opened is
/// reported as, through the built binary.
@Suite struct InputOpeningCommandTests {
    func bash(_ script: String) throws -> CommandRunner.Result {
        try CommandRunner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", "set -e\n" + script])
    }

    /// The unzipped sample, with a filtered copy of its document written beside export.xml
    /// (`body-mass.xml`, which sorts first): the folder was read from the copy, silently.
    @Test func aFolderIsReadFromExportXMLNotACopyBesideIt() throws {
        let directory = try Fixtures.temporaryDirectory()
        let made = try bash("""
            cd '\(directory.path)'
            unzip -q '\(sampleZip)' -d unzipped
            '\(healthportBinary.path)' convert unzipped --type BodyMass --format export -q > body-mass.xml
            mv body-mass.xml unzipped/apple_health_export/
            """)
        #expect(made.status == 0, "\(made.stderrText)")
        let folder = directory.appendingPathComponent("unzipped").path
        let expected = try healthport("convert", sampleZip, "-q")
        let result = try healthport("convert", folder, "-q")
        #expect(result.status == 0, "\(result.stderrText)")
        // Compared as a Bool: a failing comparison of two megabytes would be diffed for minutes.
        let same = result.stdout == expected.stdout
        #expect(same, "\(result.stdout.count) bytes, expected \(expected.stdout.count)")
        #expect(try healthport("info", folder, "-q").stdoutText.contains("Document:       apple_health_export/export.xml"))
    }

    /// Neither named export.xml: which is meant cannot be known, so neither is read.
    @Test func severalDocumentsNoneNamedExportXMLAreRefused() throws {
        let directory = try Fixtures.temporaryDirectory()
        let made = try bash("""
            cd '\(directory.path)'
            unzip -q '\(sampleZip)' -d unzipped
            cd unzipped
            mv apple_health_export/export.xml apple_health_export/exportar.xml
            '\(healthportBinary.path)' convert apple_health_export/exportar.xml --type BodyMass --format export -q > body-mass.xml
            mv body-mass.xml apple_health_export/
            zip -qr ../two.zip apple_health_export
            """)
        #expect(made.status == 0, "\(made.stderrText)")
        for (input, container) in [("unzipped", "folder"), ("two.zip", "zip archive")] {
            let path = directory.appendingPathComponent(input).path
            let result = try healthport("convert", path, "-q")
            #expect(result.status == 66)
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderrText.hasPrefix(
                    "healthport: \(path): error: the \(container) holds 2 Apple Health export documents (apple_health_export/body-mass.xml, apple_health_export/exportar.xml) and none is named export.xml; "),
                "\(result.stderrText)")
            #expect(result.stderrText.split(separator: "\n").count == 1)
        }
        // Named directly, either is read.
        #expect(try healthport("info", directory.appendingPathComponent("unzipped/apple_health_export/exportar.xml").path, "-q").status == 0)
    }

    /// A path longer than PATH_MAX to an export that is there was "no such file or folder".
    @Test func aPathTooLongIsSaidToBeTooLong() throws {
        let directory = try Fixtures.temporaryDirectory()
        let result = try bash("""
            cd '\(directory.path)'
            name=$(printf 'd%.0s' {1..200})
            while [ ${#PWD} -le 4096 ]; do mkdir "$name"; cd "$name"; done
            cp '\(sampleZip)' export.zip
            status=0; '\(healthportBinary.path)' info "$PWD/export.zip" -q > /dev/null || status=$?
            echo "$status"
            '\(healthportBinary.path)' info export.zip -q | head -n 1
            """)
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.first == "66", "\(result.stdoutText)")
        #expect(lines.last == "Input:          export.zip (zip)")
        #expect(result.stderrText.contains("/export.zip: error: the path is too long ("), "\(result.stderrText)")
        #expect(!result.stderrText.contains("no such file"))
    }

    @Test func eachReasonAPathCannotBeOpenedIsNamed() throws {
        let directory = try Fixtures.temporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("a.zip").path, withDestinationPath: "b.zip")
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("b.zip").path, withDestinationPath: "a.zip")
        for (path, message) in [
            (sampleZip + "/export.xml", "a part of the path is not a folder"),
            (directory.appendingPathComponent("a.zip").path, "too many symbolic links on the path (a loop?)"),
            (directory.appendingPathComponent("missing.zip").path, "no such file or folder"),
        ] {
            let result = try healthport("info", path, "-q")
            #expect(result.status == 66)
            #expect(result.stderrText == "healthport: \(path): error: \(message)\n")
        }
    }
}
