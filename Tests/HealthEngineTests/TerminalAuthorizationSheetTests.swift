import Foundation
import HealthEngine
import HealthModel
import HealthQuery
import HealthTestSupport
import Testing

/// The terminal sheet `healthport auth request` and HealthKitPort's terminal presenter show:
/// its exact text, how answers are read, and what ends it as a cancel.
@Suite struct TerminalAuthorizationSheetTests {
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let mass = "HKQuantityTypeIdentifierBodyMass"
    static let questions = AuthorizationRequestRun.Sheet(consumer: .init(name: "Study"), read: [steps, heartRate], share: [mass])

    /// A sheet reading `answers` and writing to a file, and a way to read back what it wrote.
    static func sheet(answering answers: String) throws -> (TerminalAuthorizationSheet, () throws -> String) {
        let folder = try Fixtures.temporaryDirectory()
        let input = folder.appendingPathComponent("answers"), output = folder.appendingPathComponent("sheet")
        try Data(answers.utf8).write(to: input)
        try Data().write(to: output)
        let sheet = TerminalAuthorizationSheet(
            input: try FileHandle(forReadingFrom: input), output: try FileHandle(forWritingTo: output))
        return (sheet, { String(decoding: try Data(contentsOf: output), as: UTF8.self) })
    }

    @Test func theSheetAsksEachTypeReadingFirstAndReadsTheAnswers() throws {
        // Answers as a person types them: any case, spaces, a CRLF line, and a word it does not
        // know (asked again).
        let (sheet, written) = try Self.sheet(answering: " Yes\nmaybe\r\nNO\r\ny\n")
        #expect(!sheet.isInteractive)
        let answers = try #require(sheet.ask(Self.questions))
        #expect(answers.read == [Self.steps: true, Self.heartRate: false])
        #expect(answers.share == [Self.mass: true])
        #expect(
            try written() == "“Study” would like to access your health data.\n"
                + "Allow reading StepCount? [y/n/q] Allow reading HeartRate? [y/n/q] Allow reading HeartRate? [y/n/q] "
                + "Allow saving BodyMass? [y/n/q] ")
    }

    @Test(arguments: ["y\nq\n", "y\ncancel\n", "y\n", ""])
    func aQuitOrTheEndOfTheInputIsACancel(input: String) throws {
        let (sheet, _) = try Self.sheet(answering: input)
        #expect(sheet.ask(Self.questions) == nil)
    }

    /// An answer without a final line break still counts; the input past the sheet's last
    /// answer is left for whoever reads next.
    @Test func theSheetReadsNoFurtherThanItsAnswers() throws {
        let (sheet, _) = try Self.sheet(answering: "n\nn\nn\nrest of the input\n")
        #expect(sheet.ask(Self.questions) == AuthorizationRequestRun.Answers(read: [Self.steps: false, Self.heartRate: false], share: [Self.mass: false]))
        #expect(String(decoding: try sheet.input.readToEnd() ?? Data(), as: UTF8.self) == "rest of the input\n")
        let (last, _) = try Self.sheet(answering: "y\ny\ny")
        #expect(last.ask(Self.questions)?.share == [Self.mass: true])
    }

    /// Per-object offers: each object described by its kind and dates (no measurement), then asked.
    @Test func theOfferDescribesEachObjectAndAsksAboutIt() throws {
        let export = Fixtures.sampleData.appendingPathComponent("export.zip").path
        let prescriptions = try PerObjectOfferRun(input: .export(export), query: ObjectQuery(types: ["HKVisionPrescriptionTypeIdentifier"])).run()
        let prescription = try #require(prescriptions.first)
        let (sheet, written) = try Self.sheet(answering: "y\n")
        let answers = sheet.offer(PerObjectRequestRun.Sheet(consumer: .init(name: "Optician"), objects: [prescription]))
        #expect(answers == [prescription.uuid: true])
        #expect(try written() == "  \(PerObjectAuthorizationRequest.describe(prescription))\nAllow “Optician” to read this one? [y/n/q] ")
        #expect(try written().contains("HKVisionPrescriptionTypeGlasses"))
        let (cancelled, _) = try Self.sheet(answering: "q\n")
        #expect(cancelled.offer(PerObjectRequestRun.Sheet(consumer: .init(name: "Optician"), objects: [prescription])) == nil)
        let (empty, nothing) = try Self.sheet(answering: "")
        #expect(empty.offer(PerObjectRequestRun.Sheet(consumer: .init(name: "Optician"), objects: [])) == [:])
        #expect(try nothing() == "")
    }
}
