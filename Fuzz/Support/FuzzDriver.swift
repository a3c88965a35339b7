import Foundation

/// The libFuzzer entry shared by every harness: libFuzzer's own `main` is replaced by the
/// executable's, which hands control to `LLVMFuzzerRunDriver` with the harness's test function.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

public enum FuzzDriver {
    /// Runs libFuzzer with the command line's options.
    public static func run(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
    }

    /// This process's own empty folder for its inputs, made once: a reader given a file looks
    /// beside it for an export's other files, and a shared temporary folder would make it list
    /// strangers' files for every input.
    public static let scratchFolder: String = {
        let folder = NSTemporaryDirectory() + "healthport-fuzz-\(getpid())"
        guard mkdir(folder, 0o700) == 0 || errno == EEXIST else { fatalError("cannot make \(folder): errno \(errno)") }
        return folder
    }()

    /// The input as bytes.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
        guard let data, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: count))
    }

    /// The input written to this process's scratch file, for readers that take a path.
    public static func file(_ data: UnsafePointer<UInt8>?, _ count: Int, name: String = "input") -> String {
        let path = scratchFolder + "/" + name
        write(data, count, to: path)
        return path
    }

    /// `bytes` written to `path`, replacing what it held.
    public static func write(_ bytes: [UInt8], to path: String) {
        bytes.withUnsafeBufferPointer { write($0.baseAddress, $0.count, to: path) }
    }

    /// A plain `write(2)`, no copy and no `fsync` (Foundation's `createFile` does both): the file
    /// is read back at once, and `Scripts/fuzz.sh` puts it on a memory file system.
    public static func write(_ data: UnsafePointer<UInt8>?, _ count: Int, to path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { fatalError("cannot write the fuzz input to \(path): errno \(errno)") }
        var written = 0
        while let data, written < count {
            let n = Glibc.write(descriptor, data + written, count - written)
            guard n > 0 else { fatalError("cannot write the fuzz input to \(path): errno \(errno)") }
            written += n
        }
        close(descriptor)
    }
}
