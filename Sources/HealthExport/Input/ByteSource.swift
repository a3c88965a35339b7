#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file descriptor read in large chunks with `read(2)`: files and standard input.
final class FileByteSource {
    let descriptor: Int32
    private let ownsDescriptor: Bool

    init(descriptor: Int32, ownsDescriptor: Bool) {
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
    }

    /// Opens a file for reading; `nil` with `errno` set on failure.
    static func open(path: String) -> FileByteSource? {
        let fd = Glibc_open(path)
        guard fd >= 0 else { return nil }
        return FileByteSource(descriptor: fd, ownsDescriptor: true)
    }

    /// Opens a file for reading, or throws the located error every reader gives.
    static func opening(_ path: String) throws -> FileByteSource {
        guard let file = open(path: path) else {
            throw ExportError(.inputNotFound, "cannot open: \(String(cString: strerror(errno)))", at: SourceLocation(file: path))
        }
        return file
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Reads up to `buffer.count` bytes; 0 at end of input. Retries on `EINTR`.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
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

@inline(__always)
private func Glibc_open(_ path: String) -> Int32 {
    #if canImport(Glibc)
    return Glibc.open(path, O_RDONLY | O_CLOEXEC)
    #else
    return Darwin.open(path, O_RDONLY | O_CLOEXEC)
    #endif
}
