import Foundation
import HealthModel
import HealthQuery

/// The authorization sheet on a terminal: the questions are written to one stream (standard
/// error by default, so that standard output stays data) and the answers read as lines from
/// another (standard input): `y`/`yes` allows, `n`/`no` denies, `q`/`quit`/`cancel` or the end
/// of the input cancels, anything else asks again.
///
/// One implementation for every face that asks on a terminal: `healthport auth request` and
/// `auth request-per-object` ask through it, and so does a Swift program that opens its
/// `HKHealthStore` with HealthKitPort's `HKTerminalAuthorizationPresenter`, so a person sees the
/// same sheet and the same answers write the same policy file. It lives in the engine, beside
/// the requests whose questions it shows (`AuthorizationRequestRun.Sheet`,
/// `PerObjectRequestRun.Sheet`), so that the command line needs no HealthKit-shaped types to
/// use it. The engine's runs never call it: a face hands it to a run as the `present` closure,
/// with the streams it chooses.
///
/// The sheet shows type names and, for per-object requests, each object's kind and dates
/// (`PerObjectAuthorizationRequest.describe`), never a measurement. It does not require a
/// terminal: answers may come from a pipe (a script, a test). A face that wants a person at a
/// keyboard checks `isInteractive` first, as the command line does (it offers `--grant` and
/// `--deny` to scripts instead).
///
/// Reading blocks the calling thread until a line arrives; call it from a thread that may wait
/// (the command line's, an engine thread), not from a task on Swift's cooperative pool.
public struct TerminalAuthorizationSheet: Sendable {
    /// Where the answers are read, a line each.
    public let input: FileHandle
    /// Where the questions are written.
    public let output: FileHandle

    /// A sheet over two streams; by default it asks on standard error and reads standard input,
    /// as `healthport auth request` does.
    public init(input: FileHandle = .standardInput, output: FileHandle = .standardError) {
        self.input = input
        self.output = output
    }

    /// Whether the answers come from a terminal (a person), not a pipe or a file.
    public var isInteractive: Bool { isatty(input.fileDescriptor) == 1 }

    /// Asks about each undecided type: reading first, then saving, in the sheet's order.
    ///
    /// - Returns: an answer for every type asked, or `nil` when the person cancels (then
    ///   `AuthorizationRequestRun` writes nothing and fails with `errorUserCanceled`).
    public func ask(_ sheet: AuthorizationRequestRun.Sheet) -> AuthorizationRequestRun.Answers? {
        write("“\(sheet.consumer.name)” would like to access your health data.\n")
        var answers = AuthorizationRequestRun.Answers()
        for type in sheet.read {
            guard let yes = question("Allow reading \(TypeCatalogue.shortName(of: type))?") else { return nil }
            answers.read[type] = yes
        }
        for type in sheet.share {
            guard let yes = question("Allow saving \(TypeCatalogue.shortName(of: type))?") else { return nil }
            answers.share[type] = yes
        }
        return answers
    }

    /// Offers the objects one by one, each described on its own line and then asked about.
    /// An empty offer writes nothing and answers nothing.
    ///
    /// - Returns: an answer per offered object, or `nil` when the person cancels (nothing is
    ///   written to the policy; `errorUserCanceled`).
    public func offer(_ sheet: PerObjectRequestRun.Sheet) -> [ObjectUUID: Bool]? {
        var answers: [ObjectUUID: Bool] = [:]
        for object in sheet.objects {
            write("  " + PerObjectAuthorizationRequest.describe(object) + "\n")
            guard let yes = question("Allow “\(sheet.consumer.name)” to read this one?") else { return nil }
            answers[object.uuid] = yes
        }
        return answers
    }

    /// `true` for yes, `false` for no, `nil` for a cancel or the end of the input.
    func question(_ text: String) -> Bool? {
        while true {
            write(text + " [y/n/q] ")
            guard let line = readLine() else { return nil }
            switch line.trimmingCharacters(in: .whitespaces).lowercased() {
            case "y", "yes": return true
            case "n", "no": return false
            case "q", "quit", "cancel": return nil
            default: continue
            }
        }
    }

    /// One line of the input without its line break (`\n` or `\r\n`); `nil` at the end of the
    /// input. Read a byte at a time with `read(2)`, so nothing past the line is consumed (the
    /// next question, or the host, reads the rest).
    func readLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = Foundation.read(input.fileDescriptor, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") {
                if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
                return String(decoding: bytes, as: UTF8.self)
            }
            bytes.append(byte)
        }
    }

    /// Writes all of `text`; a stream that went away is ignored (the next read then ends the
    /// sheet as a cancel).
    func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Foundation.write(output.fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                offset += n
            }
        }
    }
}
