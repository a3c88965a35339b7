import Foundation
import HealthExport
import HealthModel
import HealthOutput
import HealthQuery
import HealthReport
import HealthStore

/// The report a person opens (`healthport report`): one self-contained HTML file of what an
/// export (or the store) holds, through the query's gate, in one pass.
///
/// Per quantity type, its statistics per day as `healthport stats` computes them (cumulative
/// types summed with sources merged, discrete types as minimum, average and maximum), reduced
/// to weeks or months when a series would have more than `maximumPoints` points; sleep stages
/// per night and a typical day of each week or month (`healthport days --period`); blood
/// pressure from its correlations; workouts with their routes drawn from the
/// GPX files; the first seconds of each ECG; and what the reader met (as `healthport info`
/// reports it). Under a policy only what it grants is read, so a denied type leaves no trace.
///
/// The file is written atomically, mode 0600, after the whole input was read.
public struct ReportRun: Sendable {
    public var input: ObjectInput
    /// How an export is read (the parser, threads, a FIFO's wait): the face's options.
    public var reading = ReadOptions()
    public var query: ObjectQuery
    /// The zone days and nights are cut in; `nil`: the samples' most frequent `HKTimeZone`,
    /// else the export's own UTC offset (as `StatisticsRun` decides).
    public var timeZone: TimeZone?
    /// A file, or `-` for standard output.
    public var output: String
    /// A series with more points than this is drawn per week, then per month.
    public var maximumPoints = 1500
    /// The typical days are per week up to this many weeks, else per month.
    public var maximumAverageWeeks = 60
    /// At most this many ECGs (the most recent) and route maps are drawn.
    public var maximumElectrocardiograms = 60
    public var maximumRoutes = 400

    public init(input: ObjectInput, query: ObjectQuery = ObjectQuery(), output: String) {
        self.input = input
        self.query = query
        self.output = output
    }

    public struct Summary: Sendable {
        /// The report's size.
        public var bytes: Int64
        /// The sections written, in order (`overview`, `activity`, …).
        public var sections: [String]
        public var warnings: [RepeatedWarning]
    }

    public func run(reporter: RunReporter = .silent, cancellation: RunCancellation? = nil) throws(RunError) -> Summary {
        try RunError.wrapping { try execute(reporter: reporter, cancellation: cancellation) }
    }

    private func execute(reporter: RunReporter, cancellation: RunCancellation?) throws -> Summary {
        let inputPath: String
        switch input {
        case .export(let path): inputPath = path
        case .store(let path): inputPath = path
        }
        try OutputInputGuard.check(outputs: [output], inputs: [inputPath], query: query)
        var query = self.query
        // Quantities are read in their own units and converted by the collectors.
        query.outputUnit = nil
        // Whole nights: the read is wider than the window (`DaySelection`), which the sink
        // keeps for everything but sleep, and which selects the nights by their dates.
        let window = query.dateWindow
        query.dateWindow = window.map(DaySelection.reading)
        let context = try RunContext(query: query, reporter: reporter, cancellation: cancellation)
        let executor = context.executor
        let sink = ReportSink(inWindow: window.map { window in { executor.admitsDates($0, window: window) } })
        var warnings: [RepeatedWarning] = []
        var quality: DataQuality? = nil
        var reader: ExportReader? = nil
        switch try OpenedInput(input, reading: reading, cancellation: cancellation, reporter: reporter) {
        case .export(let opened):
            reader = opened
            let summary = try context.read(opened).run(into: sink, objects: { sink.inventory.objectCount })
            warnings = context.warnings(of: summary)
            // ECGs are side files the document does not list: read after the pass, through
            // the same gate.
            var electrocardiograms = 0
            try ElectrocardiogramFiles.visible(in: opened, query: context.executor, reporter: context.reporter) { _, ecg in
                if cancellation?.isCancelled == true { throw CancellationError() }
                electrocardiograms += 1
                if let trace = ReportSink.trace(of: ecg) { sink.electrocardiograms.append(trace) }
            }
            var inventory = sink.inventory
            inventory.sort()
            let info = ExportInfo(
                reader: opened, summary: summary, header: context.executor.header(summary.header), inventory: inventory,
                disclosure: context.disclosure, electrocardiograms: electrocardiograms)
            quality = Self.quality(of: info)
        case .store(let store):
            try store.read(query: context.executor, into: sink, isCancelled: cancellation?.check)
        }
        var report = HealthReport(timeZone: "", isUnderPolicy: !context.disclosure.exportFacts)
        let zone = decideTimeZone(sink)
        report.timeZone = zone.identifier
        report.quality = quality
        report.overview = Self.overview(of: sink.inventory)
        report.period = Self.period(of: sink.inventory)
        report.series = try series(of: sink, zone: zone, cancellation: cancellation)
        (report.sleep, report.averages) = try days(
            sink.days, zone: zone, selection: window.map { DaySelection(window: $0, timeZone: zone) })
        // Every time the report shows is on the clock of the zone its days are cut in: Apple
        // prints the export's offset on every date (quirk Q3), an hour off for half the year.
        func onClock(_ time: ExportTimestamp) -> ExportTimestamp {
            ExportTimestamp(
                secondsSince1970: time.secondsSince1970,
                utcOffsetSeconds: Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(time.secondsSince1970)))))
        }
        report.bloodPressure = sink.bloodPressure.sorted { $0.date < $1.date }.map { reading in
            var reading = reading
            reading.date = onClock(reading.date)
            return reading
        }
        report.workouts = try workouts(of: sink, reader: reader, reporter: context.reporter).map { workout in
            var workout = workout
            workout.start = onClock(workout.start)
            workout.end = onClock(workout.end)
            return workout
        }
        report.electrocardiograms = Array(
            sink.electrocardiograms.sorted { ($0.recorded?.secondsSince1970 ?? 0) < ($1.recorded?.secondsSince1970 ?? 0) }
                .suffix(maximumElectrocardiograms)
        ).map { trace in
            var trace = trace
            trace.recorded = trace.recorded.map(onClock)
            return trace
        }
        if sink.unconvertible > 0 && context.disclosure.exportFacts {
            context.reporter.warning(
                ExportWarning(
                    key: "report-units", message: "\(sink.unconvertible) samples in a unit that does not convert to their type's were left out of the report",
                    location: nil))
        }
        let opened = try OutputDestination(output).open()
        do {
            try ReportHTML.write(report, into: opened.buffer)
            let bytes = opened.buffer.bytesWritten + Int64(opened.buffer.count)
            try opened.commit()
            return Summary(bytes: bytes, sections: ReportHTML.sections(of: report).map(\.rawValue), warnings: warnings)
        } catch {
            opened.abandon()
            throw error
        }
    }

    /// Days, else weeks (from a Monday, as `stats --interval week`), else months.
    static let resolutions: [(TypeSeries.Resolution, CalendarIntervals.Unit, String)] = [
        (.day, .day, "2000-01-01"), (.week, .week, "2000-01-03"), (.month, .month, "2000-01-01"),
    ]

    /// `timeZone`, else the zone the samples name (`TimeZoneTally`), else the export's offset.
    private func decideTimeZone(_ sink: ReportSink) -> TimeZone {
        if let timeZone { return timeZone }
        if let zone = sink.timeZones.mostFrequent { return zone }
        if let offset = sink.exportOffset, let zone = TimeZone(secondsFromGMT: Int(offset)) { return zone }
        return TimeZone(secondsFromGMT: 0)!
    }

    /// Each type's statistics per day, or per week or month when days are too many; each
    /// collector is released once read.
    private func series(of sink: ReportSink, zone: TimeZone, cancellation: RunCancellation?) throws -> [TypeSeries] {
        var result: [TypeSeries] = []
        for identifier in sink.quantities.keys.sorted() {
            if cancellation?.isCancelled == true { throw CancellationError() }
            guard let quantities = sink.quantities.removeValue(forKey: identifier), quantities.collector.sampleCount > 0 else { continue }
            var chosen: (TypeSeries.Resolution, [IntervalStatistics]) = (.day, [])
            for (resolution, unit, anchor) in Self.resolutions {
                guard let seconds = PredicateValue.parseDate(anchor, timeZone: zone) else { continue }
                quantities.collector.intervals = CalendarIntervals(unit: unit, anchor: Date(timeIntervalSince1970: seconds), timeZone: zone)
                chosen = (resolution, quantities.collector.results())
                if chosen.1.count <= maximumPoints { break }
            }
            let points = chosen.1.map { statistics in
                TypeSeries.Point(
                    start: ExportTimestamp(
                        secondsSince1970: Int64(statistics.start.timeIntervalSince1970),
                        utcOffsetSeconds: Int32(zone.secondsFromGMT(for: statistics.start))),
                    sum: statistics.sum, minimum: statistics.minimum, average: statistics.average, maximum: statistics.maximum)
            }
            let unit = identifier == ReportSink.standHour ? "hours stood" : quantities.unit.text
            result.append(TypeSeries(identifier: identifier, kind: quantities.kind, unit: unit, resolution: chosen.0, points: points))
        }
        return result
    }

    /// Sleep per night, the nights of `healthport sleep` (18:00 to 18:00, named by the
    /// morning, sources resolved rather than added), so a night's chart shows what its row
    /// says; and a typical day of each week (or month) from the days of `healthport days`.
    func days(_ collector: SummaryCollector, zone: TimeZone, selection: DaySelection?) throws -> ([ReportSleepNight], ReportAverages?) {
        var nights: [ReportSleepNight] = []
        let builder = DayTableBuilder()
        try collector.finish(
            timeZone: zone, selection: selection, evening: SummaryCollector.defaultEvening, daily: builder.add,
            night: { night in
                builder.add(night)
                var seconds: [ReportSleepNight.Stage: Double] = [
                    .asleepUnspecified: night.asleepUnspecified, .awake: night.awake, .core: night.asleepCore, .deep: night.asleepDeep,
                    .rem: night.asleepREM,
                ]
                if let inBed = night.inBed { seconds[.inBed] = inBed }
                nights.append(ReportSleepNight(night: night.night.text, seconds: seconds.filter { $0.value > 0 }))
            })
        for rings in collector.rings { builder.add(rings: rings) }
        let table = builder.table(selection: selection)
        guard !table.rows.isEmpty else { return (nights, nil) }
        let weeks = DayPeriods.rows(of: table, period: .week, first: selection?.first, end: selection?.end)
        let averages =
            weeks.count <= maximumAverageWeeks
            ? ReportAverages(resolution: .week, columns: table.columns, rows: weeks)
            : ReportAverages(
                resolution: .month, columns: table.columns,
                rows: DayPeriods.rows(of: table, period: .month, first: selection?.first, end: selection?.end))
        return (nights, averages)
    }

    /// The workouts in time order, each route's points read from its GPX file (the most recent
    /// `maximumRoutes` routes).
    private func workouts(of sink: ReportSink, reader: ExportReader?, reporter: RunReporter) throws -> [WorkoutEntry] {
        var workouts = sink.workouts
        let drawn = sink.routes.sorted { workouts[$0.workout].start < workouts[$1.workout].start }.suffix(maximumRoutes)
        let loading = reader.map { RouteLoading(reader: $0, reporter: reporter) }
        for route in drawn {
            var points = route.points
            if let reference = route.fileReference, let loading, let (read, _) = try loading.points(reference) {
                points = ReportSink.reduced(read.map { WorkoutEntry.Point(latitude: $0.latitude.value, longitude: $0.longitude.value) })
            }
            if !points.isEmpty { workouts[route.workout].routes.append(points) }
        }
        return workouts.sorted { $0.start < $1.start }
    }

    static func overview(of inventory: ExportInventory) -> Overview {
        var overview = Overview()
        var sorted = inventory
        sorted.sort()
        overview.objectCount = sorted.objectCount
        overview.types = sorted.types.map {
            Overview.TypeCount(identifier: $0.type, kind: $0.kind, count: $0.count, first: $0.firstStartDate, last: $0.lastStartDate)
        }
        overview.sources = sorted.sources.map { Overview.Count(name: $0.name, count: $0.count) }
        overview.devices = sorted.devices.map { device in
            let name = device.description ?? [device.name, device.manufacturer, device.model, device.hardwareVersion].compactMap { $0 }.joined(separator: ", ")
            return Overview.Count(name: name, count: device.count)
        }
        return overview
    }

    static func period(of inventory: ExportInventory) -> (first: String, last: String)? {
        let firsts = inventory.types.compactMap(\.firstStartDate), lasts = inventory.types.compactMap(\.lastStartDate)
        func instant(_ text: String) -> Double { PredicateValue.parseDate(text, timeZone: TimeZone(secondsFromGMT: 0)!) ?? 0 }
        guard let first = firsts.min(by: { instant($0) < instant($1) }), let last = lasts.max(by: { instant($0) < instant($1) }) else { return nil }
        return (first, last)
    }

    /// What `healthport info` reports about the read, as the report shows it.
    static func quality(of info: ExportInfo) -> DataQuality {
        let d = info.document
        var quality = DataQuality(input: d.input, container: d.container)
        quality.exportDate = d.exportDate
        quality.replacedByteCount = d.replacedByteCount
        if let files = d.sideFiles {
            quality.workoutRouteFiles = files.workoutRoutes
            quality.electrocardiogramFiles = files.electrocardiograms
            quality.clinicalRecordFiles = files.clinicalRecords
            quality.missingRouteFiles = files.missingRouteFiles.count
            quality.missingClinicalRecordFiles = files.missingClinicalRecordFiles.count
        }
        quality.passedThrough = d.passedThrough.keys.sorted().map { Overview.Count(name: $0, count: d.passedThrough[$0]!) }
        quality.warnings = d.warnings.map { Overview.Count(name: ($0.location.map { "\($0): " } ?? "") + $0.message, count: $0.count) }
        return quality
    }
}
