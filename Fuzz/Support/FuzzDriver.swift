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

    /// The input as bytes.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
        guard let data, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: count))
    }

    /// The input written to this process's scratch file, for readers that take a path.
    public static func file(_ data: UnsafePointer<UInt8>?, _ count: Int, name: String = "input") -> String {
        let path = NSTemporaryDirectory() + "healthport-fuzz-\(getpid())-\(name)"
        let bytes = bytes(data, count)
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }
}
