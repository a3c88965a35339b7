import Foundation
import Testing
import HealthModel
import HealthQuery
import HealthTestSupport

@testable import HealthExport

/// Opening an input: which document a zip or folder holding several is read from, what a path
/// that cannot be opened is reported as, and a FIFO nobody writes to.
@Suite struct InputOpeningTests {
    /// A small export document: the root, its date, and one body-mass sample (`value`).
    static func document(value: String = "70") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2024-01-01 10:00:00 +0100"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="kg" startDate="2024-01-01 09:00:00 +0100" endDate="2024-01-01 09:00:00 +0100" value="\(value)"/>
        </HealthData>

        """
    }

    /// A folder `apple_health_export` holding each named document, inside a fresh folder.
    static func folder(_ documents: [String: String]) throws -> URL {
        let root = try Fixtures.temporaryDirectory()
        let folder = root.appendingPathComponent("apple_health_export")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in documents { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        return root
    }

    /// The same, zipped as the Health app zips it.
    static func zip(_ documents: [String: String]) throws -> URL {
        let root = try folder(documents)
        let zip = root.appendingPathComponent("export.zip")
        try ExportArchiver.zip(folder: root, to: zip)
        return zip
    }

    static func bodyMass(_ result: ReadResult) -> [Double] {
        result.sink.objects.compactMap { object -> Double? in
            guard case .quantitySample(let sample) = object else { return nil }
            return sample.quantity.value.value
        }
    }

    // MARK: several documents (a filtered copy written into the export's folder)

    /// A copy beside export.xml sorting before it (`body-mass.xml`) was read instead, silently.
    @Test(arguments: [false, true])
    func exportXMLWinsOverAnotherDocumentBesideIt(zipped: Bool) throws {
        let documents = ["export.xml": Self.document(value: "70"), "body-mass.xml": Self.document(value: "99")]
        let input = zipped ? try Self.zip(documents) : try Self.folder(documents)
        #expect(try ExportReader(.path(input.path)).layout.documentPath == "apple_health_export/export.xml")
        #expect(Self.bodyMass(try read(.path(input.path))) == [70])
    }

    @Test(arguments: [false, true])
    func severalDocumentsNoneNamedExportXMLAreRefusedListingThem(zipped: Bool) throws {
        let documents = ["exportar.xml": Self.document(value: "70"), "body-mass.xml": Self.document(value: "99")]
        let input = zipped ? try Self.zip(documents) : try Self.folder(documents)
        let error = #expect(throws: ExportError.self) { try ExportReader(.path(input.path)) }
        #expect(error?.code == .notAnExport)
        #expect(error?.location?.file == input.path)
        let message = error?.message ?? ""
        #expect(message.contains("2 Apple Health export documents"), "\(message)")
        #expect(message.contains("apple_health_export/body-mass.xml, apple_health_export/exportar.xml"), "\(message)")
        #expect(message.contains("none is named export.xml"), "\(message)")
        #expect(!message.contains("\n"))
    }

    /// Two exports unzipped side by side: both are export.xml, so the name decides nothing.
    @Test func twoExportsSideBySideAreRefused() throws {
        let root = try Fixtures.temporaryDirectory()
        for (name, value) in [("2023", "70"), ("2024", "71")] {
            let folder = root.appendingPathComponent("\(name)/apple_health_export")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(Self.document(value: value).utf8).write(to: folder.appendingPathComponent("export.xml"))
        }
        let error = #expect(throws: ExportError.self) { try ExportReader(.path(root.path)) }
        #expect(
            error?.message
                == "the folder holds 2 Apple Health export documents (2023/apple_health_export/export.xml, 2024/apple_health_export/export.xml) and 2 are named export.xml; give the one to read as the input")
        #expect(Self.bodyMass(try read(.path(root.appendingPathComponent("2024").path))) == [71])
    }

    /// One document alone is the export's whatever its name; export_cda.xml and a file that is
    /// not an export (no HealthData root) never count.
    @Test(arguments: [false, true])
    func aLocalizedDocumentAloneIsRead(zipped: Bool) throws {
        let documents = [
            "exportar.xml": Self.document(value: "70"), "export_cda.xml": "<?xml version=\"1.0\"?>\n<ClinicalDocument/>\n",
            "notes.xml": "<?xml version=\"1.0\"?>\n<notes/>\n",
        ]
        let input = zipped ? try Self.zip(documents) : try Self.folder(documents)
        let result = try read(.path(input.path))
        #expect(Self.bodyMass(result) == [70])
        #expect(try ExportReader(.path(input.path)).layout.documentPath == "apple_health_export/exportar.xml")
    }

    /// A FIFO (or a link to a device) named export.xml in a folder is passed over, never opened
    /// in a way that blocks or reads for ever.
    @Test func aFolderDocumentThatIsNotARegularFileIsPassedOver() throws {
        let root = try Self.folder(["exportar.xml": Self.document(value: "70")])
        let folder = root.appendingPathComponent("apple_health_export")
        #expect(mkfifo(folder.appendingPathComponent("export.xml").path, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("zero.xml").path, withDestinationPath: "/dev/zero")
        let reader = try ExportReader(.path(root.path))
        #expect(reader.layout.documentPath == "apple_health_export/exportar.xml")
        #expect(!reader.layout.sideFiles.contains("export.xml") && !reader.layout.sideFiles.contains("zero.xml"))
        #expect(Self.bodyMass(try read(.path(root.path))) == [70])
    }

    // MARK: paths that cannot be opened, each named for its cause

    @Test func aPathLongerThanPathMaxIsReportedAsTooLongNotMissing() throws {
        // Built folder by folder through descriptors, since the whole path cannot be handed to
        // mkdir (and the working folder is the whole test process's).
        let root = try Fixtures.temporaryDirectory()
        let component = String(repeating: "d", count: 200)
        var folder = open(root.path, O_RDONLY | O_DIRECTORY)
        var path = root.path
        while path.utf8.count <= Int(PATH_MAX) {
            #expect(mkdirat(folder, component, 0o700) == 0)
            let inner = openat(folder, component, O_RDONLY | O_DIRECTORY)
            close(folder)
            folder = inner
            path += "/" + component
        }
        defer { close(folder) }
        let file = openat(folder, "export.xml", O_WRONLY | O_CREAT, 0o600)
        _ = Self.document().withCString { write(file, $0, strlen($0)) }
        close(file)
        path += "/export.xml"
        let error = #expect(throws: ExportError.self) { try ExportReader(.path(path)) }
        #expect(error?.code == .inputNotFound)
        #expect(
            error?.message.hasPrefix("the path is too long (\(path.utf8.count) bytes; the system allows \(PATH_MAX))") == true,
            "\(error?.message ?? "")")
        // The file is there: named by a short path to its folder, it is read.
        #expect(Self.bodyMass(try read(.path("/proc/self/fd/\(folder)/export.xml"))) == [70])
    }

    @Test func eachReasonAPathCannotBeOpenedIsNamed() throws {
        let root = try Fixtures.temporaryDirectory()
        let file = root.appendingPathComponent("export.xml")
        try Data(Self.document().utf8).write(to: file)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("a").path, withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("b").path, withDestinationPath: "a")
        let cases: [(String, String)] = [
            (root.appendingPathComponent("missing.zip").path, "no such file or folder"),
            (file.path + "/export.xml", "a part of the path is not a folder"),
            (root.appendingPathComponent("a").path, "too many symbolic links on the path (a loop?)"),
            (root.appendingPathComponent(String(repeating: "n", count: 300)).path, "a name in the path is too long (300 bytes; the system allows \(NAME_MAX))"),
        ]
        for (path, message) in cases {
            let error = #expect(throws: ExportError.self) { try ExportReader(.path(path)) }
            #expect(error?.code == .inputNotFound)
            #expect(error?.message == message, "\(path)")
            #expect(error?.location?.file == path)
        }
        // Permission cannot be taken from root, which these tests may run as: the mapping alone.
        #expect(ExportError.cannotOpen("x.zip", errno: EACCES).message == "permission denied (the file, or a folder on its path, is not readable)")
    }

    // MARK: a FIFO nobody writes to

    @Test func aFIFOWithoutAWriterIsGivenUpAfterTheWait() throws {
        let fifo = try Fixtures.temporaryDirectory().appendingPathComponent("export.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        var opening = ExportReader.Opening()
        opening.writerWait = 0.2
        let error = #expect(throws: ExportError.self) { try ExportReader(.path(fifo), opening: opening) }
        #expect(error?.code == .inputNotFound)
        #expect(error?.location?.file == fifo)
        #expect(error?.message.hasPrefix("no program opened the FIFO for writing within 0.2 s") == true, "\(error?.message ?? "")")
    }

    @Test func cancellationEndsTheWaitForAWriter() throws {
        let fifo = try Fixtures.temporaryDirectory().appendingPathComponent("export.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        var opening = ExportReader.Opening()
        opening.writerWait = 3600
        opening.isCancelled = { true }
        #expect(throws: CancellationError.self) { try ExportReader(.path(fifo), opening: opening) }
    }

    /// The writer may open the FIFO after the reader started, and may keep it open a while
    /// before it writes: both are read whole.
    @Test(arguments: [false, true])
    func aWriterComingLaterIsRead(holdsOpenFirst: Bool) throws {
        let fifo = try Fixtures.temporaryDirectory().appendingPathComponent("export.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let text = Self.document(value: "81")
        let writer = Thread {
            Thread.sleep(forTimeInterval: 0.3)
            let fd = open(fifo, O_WRONLY)
            if holdsOpenFirst { Thread.sleep(forTimeInterval: 0.3) }
            _ = text.withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        writer.start()
        var opening = ExportReader.Opening()
        opening.writerWait = 3600
        let sink = CollectingSink()
        _ = try ExportReader(.path(fifo), opening: opening).read(.everything, into: sink)
        #expect(sink.objects.count == 1)
    }

    /// A writer that opens and closes without writing is an empty input, not a wait.
    @Test func aWriterThatWritesNothingIsAnEmptyInput() throws {
        let fifo = try Fixtures.temporaryDirectory().appendingPathComponent("export.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            Thread.sleep(forTimeInterval: 0.2)
            close(open(fifo, O_WRONLY))
        }
        writer.start()
        var opening = ExportReader.Opening()
        opening.writerWait = 3600
        let error = #expect(throws: ExportError.self) { try ExportReader(.path(fifo), opening: opening) }
        #expect(error?.code == .notAnExport)
    }
}
