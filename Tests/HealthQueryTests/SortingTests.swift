import Foundation
import Testing
import HealthModel
@testable import HealthQuery

@Suite struct SortingTests {
    /// Objects with random values and start dates; the payload is the object's index.
    static func objects(_ count: Int) -> [HealthObject] {
        var state: UInt64 = 7
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        return (0..<count).map { index in
            let minute = Int(next() % 500)
            let value = Int(next() % 50)
            let unit = index % 3 == 0 ? "lb" : "kg"
            return Sample.quantity(
                "HKQuantityTypeIdentifierBodyMass", value: String(value), unit: unit,
                start: ExportTimestamp(secondsSince1970: 1_700_000_000 + Int64(minute * 60), utcOffsetSeconds: 0).exportText)
        }
    }

    func drained(_ sorter: ExternalSorter) throws -> [Int] {
        var out: [Int] = []
        try sorter.drain { bytes in out.append(Int(String(decoding: bytes, as: UTF8.self))!) }
        return out
    }

    func expected(_ objects: [HealthObject], _ descriptors: [ObjectSortDescriptor]) -> [Int] {
        let keyed = objects.enumerated().map { pair in (index: pair.offset, keys: descriptors.map { d in d.key(of: pair.element) }) }
        return keyed.sorted { a, b in
            for (i, d) in descriptors.enumerated() where a.keys[i] != b.keys[i] {
                return d.ascending ? a.keys[i] < b.keys[i] : b.keys[i] < a.keys[i]
            }
            return a.index < b.index
        }.map { $0.index }
    }

    @Test(arguments: [nil, 1, 7, 1000] as [Int?])
    func spilledSortedAndLimitedOutputEqualsAFullSort(limit: Int?) throws {
        let objects = Self.objects(3000)
        let descriptors = [try ObjectSortDescriptor(parsing: "quantity:desc"), try ObjectSortDescriptor(parsing: "startDate")]
        // A tiny run budget forces many spilled runs.
        let sorter = ExternalSorter(sortDescriptors: descriptors, limit: limit, runBudget: 2000)
        for (index, object) in objects.enumerated() { try sorter.add(object, payload: Array(String(index).utf8)) }
        let full = expected(objects, descriptors)
        #expect(try drained(sorter) == Array(full.prefix(limit ?? full.count)))
    }

    @Test func quantitiesSortAcrossUnits() throws {
        let descriptor = try ObjectSortDescriptor(parsing: "quantity")
        let pound = descriptor.key(of: Sample.quantity("HKQuantityTypeIdentifierBodyMass", value: "100", unit: "lb"))
        let kilo = descriptor.key(of: Sample.quantity("HKQuantityTypeIdentifierBodyMass", value: "50", unit: "kg"))
        #expect(pound < kilo)
    }

    @Test func badSortKeysAreUsageErrors() {
        #expect(throws: QueryError.self) { try ObjectSortDescriptor(parsing: "startdate") }
        #expect(throws: QueryError.self) { try ObjectSortDescriptor(parsing: "startDate:sideways") }
    }
}
