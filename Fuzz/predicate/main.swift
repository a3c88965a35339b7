import Foundation
import FuzzSupport
import HealthModel
import HealthQuery

/// The predicate language: parse, print, parse the printed form, evaluate on a sample.
let sample: HealthObject = {
    var attributes = SampleAttributes(
        sampleType: ObjectType(recordType: "HKQuantityTypeIdentifierHeartRate"),
        sourceRevision: SourceRevision(source: Source(name: "Watch"), version: "1"),
        startDate: ExportTimestamp(secondsSince1970: 1_700_000_000, utcOffsetSeconds: 3600),
        endDate: ExportTimestamp(secondsSince1970: 1_700_000_060, utcOffsetSeconds: 3600),
        metadata: Metadata([MetadataEntry(key: "HKMetadataKeyHeartRateMotionContext", value: .number(ExportNumber(1)))]))
    attributes.uuid = ObjectUUID(high: 1, low: 2)
    return .quantitySample(QuantitySample(sample: attributes, quantity: Quantity(value: ExportNumber(72), unit: "count/min")))
}()
let utc = TimeZone(identifier: "UTC")!

@_cdecl("LLVMFuzzerTestOneInput")
func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: FuzzDriver.bytes(data, count), as: UTF8.self)
    guard let predicate = try? PredicateParser.parse(text, timeZone: utc, now: Date(timeIntervalSince1970: 0)) else { return 0 }
    _ = predicate.evaluate(sample)
    // The normalized form must parse again.
    if (try? PredicateParser.parse(predicate.description, timeZone: utc, now: Date(timeIntervalSince1970: 0))) == nil {
        fatalError("the printed form of a parsed predicate does not parse: \(predicate.description)")
    }
    return 0
}

FuzzDriver.run(test)
