#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file descriptor read in large chunks with `read(2)`: files and standard input.
final class FileByteSource {
    let descriptor: Int32
    private let ownsDescriptor: Bool
    /// Bytes read before this source was made (the FIFO wait's probe), served first.
    private var pending: [UInt8]

    init(descriptor: Int32, ownsDescriptor: Bool, pending: [UInt8] = []) {
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.pending = pending
    }

    /// Opens a regular file for reading; `nil` with `errno` set on failure (`EISDIR`, `ENXIO`
    /// for a path that is not a regular file).
    ///
    /// Opened non-blocking, and checked with `fstat(2)` on the descriptor itself, so that a
    /// FIFO put where a file was expected (a folder's `export.xml`, a file swapped after it was
    /// looked at) cannot block the open, and a device cannot feed it endless bytes.
    static func open(path: String) -> FileByteSource? {
        let fd = openNonBlocking(path)
        guard fd >= 0 else { return nil }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let code = errno
            close(fd)
            errno = code
            return nil
        }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG || kind == S_IFBLK else {
            close(fd)
            errno = kind == S_IFDIR ? EISDIR : ENXIO
            return nil
        }
        return FileByteSource(descriptor: fd, ownsDescriptor: true)
    }

    /// Opens a regular file for reading, or throws the located error every reader gives.
    static func opening(_ path: String) throws -> FileByteSource {
        guard let file = open(path: path) else { throw ExportError.cannotOpen(path, errno: errno) }
        return file
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Reads up to `buffer.count` bytes; 0 at end of input. Retries on `EINTR`.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if !pending.isEmpty {
            let count = min(pending.count, buffer.count)
            buffer.copyBytes(from: pending[0..<count])
            pending.removeFirst(count)
            return count
        }
        while true {
            #if canImport(Glibc)
            let n = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            #else
            let n = Darwin.read(descriptor, buffer.baseAddress, buffer.count)
            #endif
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw ExportError(.ioError, "read failed: \(String(cString: strerror(errno)))")
        }
    }

    /// Reads until `count` bytes or the end.
    func readPrefix(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = try bytes.withUnsafeMutableBytes { buffer in
                try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            }
            if n == 0 { break }
            filled += n
        }
        bytes.removeLast(count - filled)
        return bytes
    }
}
