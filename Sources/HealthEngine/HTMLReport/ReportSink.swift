import Foundation
import HealthModel
import HealthQuery
import HealthReport

/// After the gate: everything a report needs, gathered in the one pass over the export (or the
/// store), and nothing else.
///
/// Quantity samples go to one `StatisticsCollector` per type (the collector `healthport stats`
/// uses, so the report's daily values are the statistics command's); sleep, blood pressure,
/// workouts and the inventory are kept as small values. Raw samples are not kept beyond what
/// the collectors keep (about 48 bytes per quantity sample); nothing of a type the gate hides
/// ever arrives here.
final class ReportSink: ObjectSink {
    struct Quantities {
        let collector: StatisticsCollector
        let unit: HealthUnit
        let kind: TypeSeries.Kind
    }


    /// A workout's route, to be read (a GPX file) or already read (points in the object).
    struct PendingRoute {
        var workout: Int
        var fileReference: String?
        var points: [WorkoutEntry.Point]
    }

    static let standHour = "HKCategoryTypeIdentifierAppleStandHour"
    static let sleepAnalysis = "HKCategoryTypeIdentifierSleepAnalysis"
    static let bloodPressure = "HKCorrelationTypeIdentifierBloodPressure"
    static let systolic = "HKQuantityTypeIdentifierBloodPressureSystolic"
    static let diastolic = "HKQuantityTypeIdentifierBloodPressureDiastolic"

    var inventory = ExportInventory()
    private(set) var exportOffset: Int32?
    var quantities: [String: Quantities] = [:]
    /// The day table's types and Apple's rings, day by day as `healthport days` sums them, and
    /// sleep night by night as `healthport sleep` does (sources resolved, bounded memory): the
    /// report's typical days and its nights.
    let days = SummaryCollector(counted: DayColumn.types)
    var bloodPressure: [BloodPressureReading] = []
    var workouts: [WorkoutEntry] = []
    var routes: [PendingRoute] = []
    /// ECGs that arrive as objects (from the store or healthport's NDJSON; an export's are
    /// side files, read after the pass).
    var electrocardiograms: [ElectrocardiogramTrace] = []
    /// The `HKTimeZone`s every sample named (the zone is decided as every summary decides it).
    var timeZones = TimeZoneTally()
    /// Samples whose unit does not convert to their type's (reported once, then counted).
    var unconvertible = 0
    let placeholder = CalendarIntervals(unit: .day, anchor: Date(timeIntervalSince1970: 946_684_800), timeZone: TimeZone(secondsFromGMT: 0)!)
    private let mmHg = try? HealthUnit.cached("mmHg")
    private let minutes = try? HealthUnit.cached("min")

    func exportDidBegin(_ header: ExportHeader) throws {
        exportOffset = header.exportDate?.utcOffsetSeconds
        // A Health Connect export's days and series total as Health Connect does.
        days.adopt(header)
        // A Health Connect export's records carry their own offsets (`RecordClockZone`).
        timeZones.countsOffsets = header.platform == .healthConnect
        healthConnectPriority = header.healthConnectPriority
    }

    /// A Health Connect export's priority list (`ExportHeader.healthConnectPriority`).
    private var healthConnectPriority: HealthConnectPriority?

    /// The run's own date window, where the read is wider (`DaySelection.reading`), so that
    /// days and nights are whole: everything else is kept to it here.
    let inWindow: ((HealthObject) -> Bool)?

    init(inWindow: ((HealthObject) -> Bool)? = nil) { self.inWindow = inWindow }

    func consume(_ object: HealthObject) throws {
        // Before the window: the collector selects whole days and nights by their dates.
        try days.add(object)
        if let inWindow, !inWindow(object) { return }
        inventory.add(object)
        if let sample = object.sampleAttributes { timeZones.count(sample) }
        switch object {
        case .quantitySample(let sample): add(sample)
        case .categorySample(let sample): try add(sample)
        case .correlation(let correlation) where correlation.sample.sampleType.identifier == Self.bloodPressure: add(bloodPressure: correlation)
        case .workout(let workout): add(workout)
        case .electrocardiogram(let ecg): if let trace = Self.trace(of: ecg) { electrocardiograms.append(trace) }
        default: break
        }
    }

    private func collector(for identifier: String, style: AggregationStyle, unit: HealthUnit) -> Quantities {
        if let known = quantities[identifier] { return known }
        let kind: TypeSeries.Kind = style == .cumulative ? .cumulative : .discrete
        let options: StatisticsOptions = kind == .cumulative ? .cumulativeSum : [.discreteAverage, .discreteMin, .discreteMax]
        // A priority of its own per type, as `stats` has per run: sources rank by first
        // appearance among this type's samples.
        let entry = Quantities(
            collector: StatisticsCollector(
                style: style, options: options, intervals: placeholder, priority: SourcePriority(healthConnect: healthConnectPriority)),
            unit: unit,
            kind: kind)
        quantities[identifier] = entry
        return entry
    }

    /// The last type's collector and the last unit seen: exports list a type's samples
    /// together, so the lookups by name are made once per run of samples, not per sample.
    private var last: (identifier: String, quantities: Quantities?)?
    private var lastUnit: (text: String, unit: HealthUnit)?

    private func add(_ sample: QuantitySample) {
        let identifier = sample.sample.sampleType.identifier
        let quantities: Quantities
        if let last, last.identifier == identifier {
            guard let known = last.quantities else { return }
            quantities = known
        } else {
            guard let entry = TypeCatalogue.entry(for: identifier), entry.kind == .quantity, let style = entry.aggregationStyle,
                let unit = try? HealthUnit.cached(entry.canonicalUnit ?? "count")
            else {
                last = (identifier, nil)
                return
            }
            quantities = collector(for: identifier, style: style, unit: unit)
            last = (identifier, quantities)
        }
        let from: HealthUnit
        if let lastUnit, lastUnit.text == sample.quantity.unit {
            from = lastUnit.unit
        } else if let parsed = try? HealthUnit.cached(sample.quantity.unit) {
            from = parsed
            lastUnit = (sample.quantity.unit, parsed)
        } else {
            unconvertible += 1
            return
        }
        guard from.isCompatible(with: quantities.unit), let value = try? from.convert(sample.quantity.value.value, to: quantities.unit) else {
            unconvertible += 1
            return
        }
        quantities.collector.add(sample.sample, value: value)
    }

    private func add(_ sample: CategorySample) throws {
        switch sample.sample.sampleType.identifier {
        case Self.standHour:
            // Stood (0) hours, summed per day like a cumulative quantity of one per hour.
            guard sample.value.rawValue == 0, let unit = try? HealthUnit.cached("count") else { return }
            collector(for: Self.standHour, style: .cumulative, unit: unit).collector.add(sample.sample, value: 1)
        default: break
        }
    }

    private func add(bloodPressure correlation: Correlation) {
        var systolic: Double?, diastolic: Double?
        for member in correlation.objects {
            guard case .quantity(let q) = member, let mmHg, let from = try? HealthUnit.cached(q.quantity.unit),
                let value = try? from.convert(q.quantity.value.value, to: mmHg)
            else { continue }
            switch q.sample.sampleType.identifier {
            case Self.systolic: systolic = value
            case Self.diastolic: diastolic = value
            default: break
            }
        }
        guard let systolic, let diastolic else { return }
        bloodPressure.append(BloodPressureReading(date: correlation.sample.startDate, systolic: systolic, diastolic: diastolic))
    }

    private func add(_ workout: Workout) {
        var duration: Double? = nil
        if let d = workout.duration, let minutes, let from = try? HealthUnit.cached(d.unit) {
            duration = try? from.convert(d.value.value, to: minutes)
        }
        if duration == nil {
            duration = Double(workout.sample.endDate.secondsSince1970 - workout.sample.startDate.secondsSince1970) / 60
        }
        let index = workouts.count
        workouts.append(
            WorkoutEntry(
                start: workout.sample.startDate, end: workout.sample.endDate, activityType: workout.workoutActivityType.name,
                source: workout.sample.sourceRevision.source.name, duration: duration, distance: workout.effectiveTotalDistance,
                energy: workout.effectiveTotalEnergyBurned))
        for route in workout.routes {
            let inline = route.locations.compactMap { location -> WorkoutEntry.Point? in
                guard let latitude = location.latitude?.value, let longitude = location.longitude?.value else { return nil }
                return WorkoutEntry.Point(latitude: latitude, longitude: longitude)
            }
            routes.append(PendingRoute(workout: index, fileReference: inline.isEmpty ? route.fileReference : nil, points: Self.reduced(inline)))
        }
    }

    /// At most `limit` points, evenly taken, the last one kept: enough for a 180-pixel map.
    static func reduced(_ points: [WorkoutEntry.Point], limit: Int = 150) -> [WorkoutEntry.Point] {
        guard points.count > limit else { return points }
        let step = Double(points.count - 1) / Double(limit - 1)
        return (0..<limit).map { points[min(points.count - 1, Int((Double($0) * step).rounded()))] }
    }

    /// An ECG's first seconds, as drawn: at most `seconds` of it, every second sample of a 512 Hz
    /// recording (a 180-pixel-high trace shows no more; a ten-year export has hundreds of ECGs).
    static func trace(of ecg: Electrocardiogram, seconds: Double = 3) -> ElectrocardiogramTrace? {
        guard let frequency = ecg.samplingFrequency, frequency > 0, frequency.isFinite, !ecg.voltages.isEmpty else { return nil }
        let kept = ecg.voltages.prefix(Int(frequency * seconds))
        let stride = max(1, Int(frequency / 256))
        let voltages = Swift.stride(from: kept.startIndex, to: kept.endIndex, by: stride).map { kept[$0] }
        return ElectrocardiogramTrace(
            recorded: ecg.recordedDate, classification: ecg.classification, samplingFrequency: frequency / Double(stride),
            unit: ecg.unit ?? "µV", voltages: voltages)
    }
}
