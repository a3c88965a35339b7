import Foundation
import HealthJSON

/// Where a writer writes: standard output, or a path (a file, or a folder for CSV tables,
/// written atomically through `AtomicFile` and `StagingFolder`).
public enum OutputDestination: Sendable, Equatable {
    case standardOutput
    case path(String)

    /// `-` is standard output, as on every command line.
    public init(_ argument: String) {
        self = argument == "-" ? .standardOutput : .path(argument)
    }

    /// Standard output's buffer: flushed after every record on a terminal, so a person sees
    /// each object as it is read, and in large blocks otherwise.
    public static func standardOutputBuffer() -> OutputBuffer {
        let buffer = OutputBuffer(descriptor: 1)
        buffer.flushesEveryRecord = isatty(1) == 1
        return buffer
    }

    /// Whether standard output is a pipe whose reader has gone (`| head -n 1` after its line):
    /// what a follower asks while it waits with nothing to write, as `tail -f` does, since no
    /// write will come to raise `EPIPE`. A pipe's write end reports `POLLERR` once its reader
    /// closed it (Linux), `POLLHUP` on some systems; a file or a terminal never does.
    public static func standardOutputReaderIsGone() -> Bool {
        var descriptor = pollfd(fd: 1, events: Int16(POLLOUT), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        return descriptor.revents & Int16(POLLERR | POLLHUP) != 0
    }

    /// A buffer to write to and what to do at the end: the standard output's buffer, or an
    /// atomic file at the path.
    public func open() throws -> OpenedOutput {
        switch self {
        case .standardOutput: return OpenedOutput(buffer: Self.standardOutputBuffer(), file: nil)
        case .path(let path): return OpenedOutput(file: try AtomicFile(destination: path))
        }
    }
}

/// A destination opened for one file's bytes.
public struct OpenedOutput {
    public let buffer: OutputBuffer
    /// The atomic file behind the buffer; `nil` for standard output.
    public let file: AtomicFile?

    init(buffer: OutputBuffer, file: AtomicFile?) {
        self.buffer = buffer
        self.file = file
    }

    /// A buffer the caller owns (standard output), flushed at the end.
    public init(buffer: OutputBuffer) {
        self.init(buffer: buffer, file: nil)
    }

    /// A file written atomically, put in place at the end.
    public init(file: AtomicFile) {
        self.buffer = file.buffer
        self.file = file
    }

    /// Completes the output: renames the file into place, or flushes standard output.
    public func commit() throws {
        if let file { try file.commit() } else { try buffer.flush() }
    }

    /// Abandons the output: the temporary file is removed; what standard output has not
    /// written yet is dropped.
    public func abandon() {
        if let file { file.abandon() } else { buffer.discard() }
    }
}
