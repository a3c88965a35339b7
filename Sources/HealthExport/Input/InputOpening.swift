#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

extension ExportReader {
    /// How the reader opens its input: what a run passes down, never read from the environment.
    ///
    /// For example, a test that must not wait a minute for a FIFO nobody writes to:
    /// ```swift
    /// var opening = ExportReader.Opening()
    /// opening.writerWait = 0.2
    /// let reader = try ExportReader(.path("export.fifo"), opening: opening)
    /// ```
    public struct Opening: Sendable {
        /// How long a FIFO named by path may go without a program opening it for writing before
        /// the reader gives up (`.inputNotFound`, the CLI's status 66). A writer may start a
        /// little after healthport (`mkfifo f; healthport convert f & cat export.zip > f`);
        /// one that never comes would otherwise block the read forever.
        public var writerWait: TimeInterval = Opening.defaultWriterWait
        /// Polled while waiting for a writer: `true` ends the wait with `CancellationError`.
        public var isCancelled: @Sendable () -> Bool = { false }
        /// How many times a zip entry may expand (`ZipLimits.defaultRatio`): the limit a zip
        /// bomb meets. The CLI raises it from `HEALTHPORT_MAX_EXPANSION`; nothing below the
        /// faces reads the environment.
        public var maximumExpansion: UInt64 = ZipLimits.defaultRatio

        /// One minute: long enough to start the writer by hand in another terminal.
        public static let defaultWriterWait: TimeInterval = 60

        public init() {}
    }
}

extension ExportError {
    /// The one-line error for a path that `stat(2)` or `open(2)` refused, saying which of the
    /// usual causes it was rather than "no such file" for all of them.
    static func cannotOpen(_ path: String, errno code: Int32) -> ExportError {
        let message: String
        switch code {
        case ENOENT:
            message = "no such file or folder"
        case ENAMETOOLONG:
            let longest = path.split(separator: "/").map(\.utf8.count).max() ?? 0
            message =
                longest > Int(NAME_MAX)
                ? "a name in the path is too long (\(longest) bytes; the system allows \(NAME_MAX))"
                : "the path is too long (\(path.utf8.count) bytes; the system allows \(PATH_MAX)); "
                    + "give it relative to a folder closer to it"
        case EACCES:
            message = "permission denied (the file, or a folder on its path, is not readable)"
        case ELOOP:
            message = "too many symbolic links on the path (a loop?)"
        case ENOTDIR:
            message = "a part of the path is not a folder"
        case ENXIO:
            message = "not a file that can be read (a socket, a device, or a FIFO where a file was expected)"
        default:
            message = "cannot open: \(String(cString: strerror(code)))"
        }
        return ExportError(.inputNotFound, message, at: SourceLocation(file: path))
    }
}

/// The kind of file a path names, following symbolic links.
enum InputKind {
    case regular, folder, stream, other

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .folder
        case S_IFIFO, S_IFCHR, S_IFSOCK: self = .stream
        default: self = .other
        }
    }

    /// `stat(2)` of `path`, or the located error saying why it failed.
    static func of(_ path: String) throws -> InputKind {
        var status = stat()
        guard stat(path, &status) == 0 else { throw ExportError.cannotOpen(path, errno: errno) }
        return InputKind(mode: status.st_mode)
    }
}

/// Opening a stream named by path (a FIFO, `/dev/stdin`, `<(…)`, a character device) without
/// blocking in `open(2)`.
enum StreamOpening {
    /// Opens `path` for reading, waiting as `opening` allows for a writer when it is a named FIFO
    /// nobody writes to yet.
    ///
    /// A FIFO opened the plain way blocks in `open(2)` until a writer comes, for ever if none
    /// does, and no signal handler of a library can end that. So it is opened non-blocking
    /// (which never waits), and the wait is a loop of short `poll(2)`s that sees cancellation
    /// and a deadline. A non-blocking `read(2)` tells the cases apart: `EAGAIN` means a writer
    /// holds the FIFO open (it may be slow to write; from here reads block as usual), data
    /// means one wrote, and 0 means no writer: none came yet, or one came and left without
    /// writing, which `poll` reports as `POLLHUP`.
    ///
    /// An anonymous pipe (`<(…)`, `/dev/stdin` on a pipe) had its writer from birth: 0 there
    /// is the end of the input, so it is not waited for. Only Linux tells the two apart
    /// (`/proc/self/fd`) and reports a writer that came and went (`POLLHUP`) this way; elsewhere
    /// the FIFO is opened as before, blocking until a writer comes (a signal still ends the
    /// process, after the CLI's grace).
    ///
    /// - Returns: the descriptor, in blocking mode, and the bytes the wait read (at most one).
    /// - Throws: `ExportError` `.inputNotFound` when no writer came in time, or the path cannot
    ///   be opened; `CancellationError` when cancelled while waiting.
    static func open(_ path: String, opening: ExportReader.Opening) throws -> (descriptor: Int32, pending: [UInt8]) {
        #if os(Linux)
        let fd = openNonBlocking(path)
        #else
        let fd = Darwin.open(path, O_RDONLY | O_CLOEXEC)
        #endif
        guard fd >= 0 else { throw ExportError.cannotOpen(path, errno: errno) }
        do {
            let pending = try waitForWriter(fd, path: path, opening: opening)
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
            return (fd, pending)
        } catch {
            close(fd)
            throw error
        }
    }

    private static func waitForWriter(_ fd: Int32, path: String, opening: ExportReader.Opening) throws -> [UInt8] {
        guard isNamedFIFO(fd) else { return [] }
        let deadline = Date().addingTimeInterval(opening.writerWait)
        var hungUp = false
        while true {
            var byte: UInt8 = 0
            let n = read(fd, &byte, 1)
            if n == 1 { return [byte] }
            if n < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { return [] }
                if errno == EINTR { continue }
                throw ExportError(.ioError, "read failed: \(String(cString: strerror(errno)))", at: SourceLocation(file: path))
            }
            // No writer now: none came yet, or one came and left without writing (empty input).
            if hungUp { return [] }
            if opening.isCancelled() { throw CancellationError() }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                let seconds = String(format: "%g", opening.writerWait)
                throw ExportError(
                    .inputNotFound, "no program opened the FIFO for writing within \(seconds) s; start the writer first, or within that time",
                    at: SourceLocation(file: path))
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let slice = Int32(min(100, max(1, (remaining * 1000).rounded(.up))))
            if poll(&descriptor, 1, slice) > 0 && descriptor.revents & Int16(POLLHUP) != 0 { hungUp = true }
        }
    }

    /// Whether `fd` is a FIFO with a name in a file system, which a writer has to open, rather
    /// than an anonymous pipe, which has had its writer since it was made.
    private static func isNamedFIFO(_ fd: Int32) -> Bool {
        #if os(Linux)
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return false }
        // The kernel names an anonymous pipe's descriptor `pipe:[inode]`, a named FIFO's its path.
        var target = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/self/fd/\(fd)", &target, target.count - 1)
        guard count > 0 else { return true }
        return !String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self).hasPrefix("pipe:")
        #else
        return false
        #endif
    }
}

/// `open(2)` for reading that never blocks: on a FIFO without a writer it returns at once.
/// O_NONBLOCK changes nothing for regular files and folders.
@inline(__always)
func openNonBlocking(_ path: String) -> Int32 {
    #if canImport(Glibc)
    return Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    #else
    return Darwin.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    #endif
}
