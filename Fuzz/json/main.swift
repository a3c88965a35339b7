import FuzzSupport
import HealthExport
import HealthJSON
import HealthModel
import HealthOutput

/// healthport's NDJSON read back: any line is an object or a schema/syntax error, and an
/// object that decodes encodes to JSON that decodes to the same object.
@_cdecl("LLVMFuzzerTestOneInput")
func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let writer = NDJSONWriter(buffer: OutputBuffer(descriptor: -1))
    guard let object = try? ObjectDecoder.decode(FuzzDriver.bytes(data, count)) else { return 0 }
    guard let encoded = try? writer.encode(object), let again = try? ObjectDecoder.decode(Array(encoded.dropLast())) else {
        fatalError("a decoded object does not survive encoding")
    }
    if again != object { fatalError("a decoded object changes through encoding") }
    return 0
}

FuzzDriver.run(test)
