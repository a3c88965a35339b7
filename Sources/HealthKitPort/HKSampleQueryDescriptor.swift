import Foundation
import HealthEngine
import HealthModel
import HealthQuery

/// A sample query (HealthKit: `HKSampleQueryDescriptor`): the samples matching any of the
/// `predicates`, sorted, at most `limit` of them.
///
/// Runs `SampleQueryRun`, the run behind `healthport query`, with the store's policy: the
/// result holds the objects, uuids and order that `healthport query --type … --sort … --limit …`
/// prints. A type whose reading the policy denies answers like an empty one; a type never
/// decided fails with `errorAuthorizationNotDetermined`.
///
/// Sorting: `SortDescriptor(\.startDate)` and `\.endDate` (either order) sort in the engine,
/// like `--sort startDate:desc`; ties keep the input's order. Other sort descriptors sort the
/// result in memory. Without sort descriptors the order is the input's (document order for an
/// export, change order for a store).
public struct HKSampleQueryDescriptor<Sample: HKSample>: Sendable {
    /// The entries; a sample matches when it matches any of them.
    public var predicates: [HKSamplePredicate<Sample>]
    /// The order of the result; empty keeps the input's order.
    public var sortDescriptors: [SortDescriptor<Sample>]
    /// At most this many samples; `nil` (or 0, HealthKit's `HKObjectQueryNoLimit`) returns
    /// every match.
    public var limit: Int?

    /// A descriptor for the samples matching any entry of `predicates`, sorted, at most `limit`.
    public init(predicates: [HKSamplePredicate<Sample>], sortDescriptors: [SortDescriptor<Sample>], limit: Int? = nil) {
        self.predicates = predicates
        self.sortDescriptors = sortDescriptors
        self.limit = limit
    }

    /// Runs the query.
    ///
    /// - Throws: `HKError`: `errorInvalidArgument` for a predicate this library cannot read or
    ///   a negative limit; `errorAuthorizationNotDetermined` for a type the policy never
    ///   decided; `errorDatabaseInaccessible` for an unreadable input.
    public func result(for healthStore: HKHealthStore) async throws -> [Sample] {
        if let limit, limit < 0 { throw HKError(.errorInvalidArgument, "limit must not be negative") }
        if predicates.isEmpty { return [] }
        // HealthKit's HKObjectQueryNoLimit is 0.
        let limit = self.limit == 0 ? nil : self.limit
        let engineSort = try Self.engineSortDescriptors(sortDescriptors)
        // One run when every entry shares its predicate (the types are ORed), else one per
        // predicate, merged and sorted here.
        var queries: [ObjectQuery] = []
        let groups = Dictionary(grouping: predicates.indices) { predicates[$0].nsPredicate.map(ObjectIdentifier.init) }
        for indices in groups.values.sorted(by: { $0[0] < $1[0] }) {
            var query = ObjectQuery(types: Set(indices.map { predicates[$0].type.identifier }))
            try HKPortPredicate.apply(predicates[indices[0]].nsPredicate, to: &query)
            queries.append(try healthStore.authorized(query))
        }
        // The engine sorts and limits when it can see the whole result in its own order.
        let inEngine = queries.count == 1 && (sortDescriptors.isEmpty || engineSort != nil)
        let input = healthStore.input
        let runs = queries
        let runLimit = inEngine ? limit : nil
        let runSort = inEngine ? engineSort ?? [] : []
        let objects = try await runEngine { cancellation in
            var objects: [HealthObject] = []
            for query in runs {
                objects += try SampleQueryRun(input: input, query: query, sortDescriptors: runSort, limit: runLimit).objects(cancellation: cancellation)
            }
            return objects
        }
        var samples = objects.compactMap { HKObject.make($0) as? Sample }
        if !inEngine {
            if !sortDescriptors.isEmpty { samples.sort(using: sortDescriptors) }
            if let limit, samples.count > limit { samples = Array(samples.prefix(limit)) }
        }
        return samples
    }

    /// `startDate`/`endDate` descriptors as the engine's; `nil` when one is anything else.
    static func engineSortDescriptors(_ descriptors: [SortDescriptor<Sample>]) throws -> [ObjectSortDescriptor]? {
        var result: [ObjectSortDescriptor] = []
        for descriptor in descriptors {
            let key: String
            if descriptor.keyPath == \Sample.startDate {
                key = "startDate"
            } else if descriptor.keyPath == \Sample.endDate {
                key = "endDate"
            } else {
                return nil
            }
            result.append(try ObjectSortDescriptor(parsing: key + (descriptor.order == .reverse ? ":desc" : ":asc")))
        }
        return result
    }
}

