import HealthModel

/// Samples made into summary records, apart from the collector that sorts and closes them:
/// the per-object half of the summary, which needs nothing shared. A parallel read's chunks
/// each make one on their own thread (`makeBatch()`), and `SummaryCollector.absorb(_:)` takes
/// them in document order; the collector's own `add(_:)` goes through one too, so both reads
/// make the same records.
///
/// Names are numbered per batch (its types, its sources); the collector renumbers them when it
/// absorbs the batch. What depends on every earlier sample (a source's order of first
/// appearance, an unknown type's unit) is decided there, in document order, so a parallel read
/// ranks and converts exactly as one thread would.
public final class SummaryRecordBatch {
    /// A sample as the batch keeps it, in its own numbering.
    struct Record {
        var type: Int32
        var source: Int32
        var tier: Int32
        /// On the explicit priority list: ranked by its place there, not by appearance.
        var listed: Bool
        var start: Double
        var end: Double
        var value: Double
        /// A listed record's order within its tier (0, or a Health Connect record's recency:
        /// `HealthConnectRanking`).
        var order: Int32 = 0
    }

    private let tiers: SourcePriority.Tiers
    private(set) var records: [Record] = []
    /// The batch's types in order of first appearance, each with the unit its values are in (a
    /// quantity type's canonical unit, else its first sample's; `nil` for categories and workouts).
    private(set) var types: [(identifier: String, style: AggregationStyle?, unit: HealthUnit?)] = []
    private var typeIndex: [String: Int32] = [:]
    private(set) var sources: [String] = []
    private var sourceIndex: [String: Int32] = [:]
    /// The last type, unit and source met: samples come in long runs of one type, unit and
    /// source, and the reader interns their names, so comparing with the last one is mostly a
    /// pointer comparison where a dictionary lookup hashes the whole name (normalizing first one
    /// that is not ASCII, as many source names are), for every sample. A store's import feeds
    /// every sample through here (`StoreSummaries`), so this is its hot path too.
    private var lastType: (identifier: String, index: Int32)? = nil
    private var lastUnit: (type: Int32, text: String, unit: HealthUnit?)? = nil
    private var lastSource: (name: String, index: Int32)? = nil
    /// The `HKTimeZone`s the samples named, to choose the time zone.
    private(set) var timeZones = TimeZoneTally()
    /// The types whose samples become records; the others read only vote for the zone
    /// (`TimeZoneTally.reading`). `nil`: every type.
    private let counted: Set<String>?
    /// Samples whose unit does not convert to their type's (left out, counted).
    private(set) var unconvertible = 0
    /// Samples spanning more than `SummaryCollector.longestSample` (left out, counted).
    private(set) var tooLong = 0
    /// A Health Connect export's samples from apps its priority list leaves out (left out of
    /// the totals, as Health Connect leaves them out; counted).
    private(set) var leftOutByPriority = 0

    init(tiers: SourcePriority.Tiers, counted: Set<String>?, countsOffsets: Bool = false) {
        self.tiers = tiers
        self.counted = counted
        timeZones.countsOffsets = countsOffsets
        records.reserveCapacity(1024)
    }

    /// Adds one object: quantity and category samples and workouts count; other objects (and
    /// correlations, whose members are samples of their own) do not.
    public func add(_ object: HealthObject) {
        if counted != nil, let sample = object.sampleAttributes, !counts(sample.sampleType.identifier) {
            timeZones.count(sample)
            return
        }
        switch object {
        case .quantitySample(let sample):
            let type = sample.sample.sampleType.identifier
            let index = self.index(ofType: type) { identifier in
                let entry = TypeCatalogue.entry(for: identifier)
                return (entry?.aggregationStyle ?? .discreteArithmetic, try? HealthUnit.cached(entry?.canonicalUnit ?? sample.quantity.unit))
            }
            let from: HealthUnit?
            if let lastUnit, lastUnit.type == index, lastUnit.text == sample.quantity.unit {
                from = lastUnit.unit
            } else {
                // The sample's unit, when it converts to its type's.
                let unit = types[Int(index)].unit
                from = (try? HealthUnit.cached(sample.quantity.unit)).flatMap { unit != nil && $0.isCompatible(with: unit!) ? $0 : nil }
                lastUnit = (index, sample.quantity.unit, from)
            }
            guard let unit = types[Int(index)].unit, let from, let value = try? from.convert(sample.quantity.value.value, to: unit) else {
                unconvertible += 1
                return
            }
            record(sample.sample, type: index, value: value)
        case .categorySample(let sample):
            let index = self.index(ofType: sample.sample.sampleType.identifier) { _ in (nil, nil) }
            // Only the values the type's day counts (`CategoryDayMeasure`): an idle hour is no
            // stand hour, a symptom "not present" no symptom. The sample still names its zone.
            if !measure(of: index).counts(value: sample.value.rawValue) {
                timeZones.count(sample.sample)
                return
            }
            // A value a newer iOS adds without a number counts as -1 (time and count only).
            record(sample.sample, type: index, value: Double(sample.value.rawValue ?? -1))
        case .workout(let workout):
            let index = self.index(ofType: ObjectType.workout.identifier) { _ in (nil, nil) }
            if record(workout.sample, type: index, value: 1) { workouts.append(WorkoutRecord(workout)) }
        case .activitySummary(let summary):
            if summary.dateComponents != nil { activitySummaries.append(summary) }
        default:
            return
        }
    }

    /// The daily measure of the category type numbered `index` (the last one's kept: samples
    /// come in runs of one type).
    private func measure(of index: Int32) -> CategoryDayMeasure {
        if let lastMeasure, lastMeasure.index == index { return lastMeasure.measure }
        let measure = CategoryDayMeasure.of(types[Int(index)].identifier)
        lastMeasure = (index, measure)
        return measure
    }
    private var lastMeasure: (index: Int32, measure: CategoryDayMeasure)? = nil

    /// Whether samples of `identifier` become records (the last type's answer is kept).
    private func counts(_ identifier: String) -> Bool {
        if let lastVoter, lastVoter.identifier == identifier { return lastVoter.counts }
        let answer = counted?.contains(identifier) ?? true
        lastVoter = (identifier, answer)
        return answer
    }
    private var lastVoter: (identifier: String, counts: Bool)? = nil

    /// The workouts among the records, as the workout summary lists them (a few a day).
    private(set) var workouts: [WorkoutRecord] = []
    /// Apple's rings, one per day (`ActivitySummary`): beside the day table's own figures.
    private(set) var activitySummaries: [ActivitySummary] = []

    /// Forgets the records (once absorbed), keeping the numbering and the last-met caches for
    /// the samples still to come.
    func removeRecords() {
        records.removeAll(keepingCapacity: true)
        workouts.removeAll(keepingCapacity: true)
        activitySummaries.removeAll(keepingCapacity: true)
    }

    private func index(ofType identifier: String, describe: (String) -> (AggregationStyle?, HealthUnit?)) -> Int32 {
        if let lastType, lastType.identifier == identifier { return lastType.index }
        if let known = typeIndex[identifier] {
            lastType = (identifier, known)
            return known
        }
        let index = Int32(types.count)
        let (style, unit) = describe(identifier)
        types.append((identifier, style, unit))
        typeIndex[identifier] = index
        lastType = (identifier, index)
        return index
    }

    /// Makes the sample a record; `false` when it is left out (longer than ten years).
    @discardableResult
    private func record(_ sample: SampleAttributes, type: Int32, value: Double) -> Bool {
        let name = sample.sourceRevision.source.name
        let source: Int32
        if let lastSource, lastSource.name == name {
            source = lastSource.index
        } else if let known = sourceIndex[name] {
            source = known
        } else {
            source = Int32(sources.count)
            sources.append(name)
            sourceIndex[name] = source
        }
        lastSource = (name, source)
        let start = Double(sample.startDate.secondsSince1970)
        if Double(sample.endDate.secondsSince1970) - start > SummaryCollector.longestSample {
            tooLong += 1
            return false
        }
        timeZones.count(sample)
        var tier = tiers.tier(of: sample)
        var order: Int32 = 0
        if let priority = tiers.healthConnect {
            switch HealthConnectRanking.rank(sample, type: types[Int(type)].identifier, priority: priority) {
            case .ranked(let place, let recency):
                tier = (place, true)
                order = recency
            case .leftOut:
                leftOutByPriority += 1
                return false
            case .unranked:
                break
            }
        }
        records.append(
            Record(
                type: type, source: source, tier: Int32(tier.tier), listed: tier.listed, start: start,
                end: max(start, Double(sample.endDate.secondsSince1970)), value: value, order: order))
        return true
    }
}
