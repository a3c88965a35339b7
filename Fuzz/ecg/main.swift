import Foundation
import FuzzSupport
import HealthExport

/// Electrocardiogram CSV files.
@_cdecl("LLVMFuzzerTestOneInput")
func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    _ = try? ElectrocardiogramReader.read(Data(FuzzDriver.bytes(data, count)), file: "ecg_fuzz.csv")
    return 0
}

FuzzDriver.run(test)
