import FuzzSupport
import HealthExport
import HealthModel

/// The export reader on any bytes: zip, folder-less XML, fragments, NDJSON — sniffed by content.
final class NullSink: ExportSink {
    var count = 0
    func exportDidBegin(_ header: ExportHeader) throws {}
    func consume(_ object: HealthObject) throws { count += 1 }
}

@_cdecl("LLVMFuzzerTestOneInput")
func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let path = FuzzDriver.file(data, count)
    if let reader = try? ExportReader(.path(path)) {
        // With salvage, broken inputs go on to the cut-off zip reader and the salvage path.
        _ = try? reader.read(into: NullSink(), salvage: true)
        for file in reader.layout.sideFiles.prefix(8) { _ = try? reader.attachment(file) }
    }
    return 0
}

FuzzDriver.run(test)
