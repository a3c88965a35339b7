import FuzzSupport
import HealthQuery

/// Policy files (`healthport-policy(5)`).
@_cdecl("LLVMFuzzerTestOneInput")
func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    _ = try? AuthorizationPolicy.load(from: FuzzDriver.file(data, count))
    return 0
}

FuzzDriver.run(test)
