import Foundation
import FuzzSupport
import HealthExport

/// Workout route GPX files.
@_cdecl("LLVMFuzzerTestOneInput")
func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    _ = try? GPXReader.points(in: Data(FuzzDriver.bytes(data, count)), file: SourceLocation(file: "fuzz.gpx"))
    return 0
}

FuzzDriver.run(test)
