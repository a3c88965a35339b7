import HealthModel

/// Reads one record table (with its child tables, for series and sessions) into model objects,
/// one row at a time: records in `row_id` order, their children beside them (`ChildScan`).
struct TableReader {
    let table: RecordTable
    /// The child tables the database has.
    let children: [RecordTable.ChildTable]
    let database: ReadOnlyDatabase
    let provenance: Provenance
    let limits: HealthConnectLimits
    /// `table.columns`, made once: the rows look their columns up by name.
    private let columns: [String]

    init(
        table: RecordTable, children: [RecordTable.ChildTable], database: ReadOnlyDatabase, provenance: Provenance,
        limits: HealthConnectLimits
    ) {
        self.table = table
        self.children = children
        self.database = database
        self.provenance = provenance
        self.limits = limits
        columns = table.columns
    }

    /// The common columns' positions in `RecordTable.columns`.
    private enum Column {
        static let row: Int32 = 0, uuid: Int32 = 1, app: Int32 = 2, device: Int32 = 3, method: Int32 = 4, client: Int32 = 5
        static let modified: Int32 = 6, time: Int32 = 7, offset: Int32 = 8, end: Int32 = 9, endOffset: Int32 = 10
    }

    /// Reads every row, handing each object to `deliver`; returns the number of records.
    func read(_ deliver: (HealthObject) throws -> Void) throws -> Int {
        let parents = try database.prepare(
            "SELECT \(columns.joined(separator: ", ")) FROM \(table.name) ORDER BY row_id", table: table.name)
        var scans: [String: ChildScan] = [:]
        for child in children { scans[child.name] = try ChildScan(child, database: database) }
        var count = 0
        while try parents.step() {
            count += 1
            let row = parents.int64(Column.row)
            var attributes = try sampleAttributes(parents, row: row)
            if let context = table.context {
                let codes = try context.columns.map { try code(parents, column: $0, row: row) }
                attributes.metadata.entries += context.metadata(codes: codes)
            }
            switch table.layout {
            case .instant, .interval:
                let name = table.valueColumn ?? ""
                guard case .value(let stored) = parents.number(index(of: name)) else {
                    throw invalid("no value, or not a number", row: row, column: name)
                }
                try deliver(.quantitySample(QuantitySample(sample: attributes, quantity: quantity(stored))))
            case .cycleTracking(let record):
                let codes = try record.columns.map { try code(parents, column: $0, row: row) }
                let mapped = record.sample(codes: codes)
                var sample = attributes
                sample.sampleType = ObjectType(identifier: mapped.typeIdentifier, kind: .category)
                sample.metadata.entries += mapped.metadata
                try deliver(.categorySample(CategorySample(sample: sample, value: mapped.value)))
            case .series:
                guard let scan = children.first.flatMap({ scans[$0.name] }) else { break }
                try scan.forEach(of: row) { child, index in try deliver(try reading(child, of: attributes, index: index, row: row)) }
            case .sleepSession:
                let scan = children.first.flatMap { scans[$0.name] }
                var session = attributes
                addSessionText(parents, from: index(of: "title"), to: &session)
                let hasStages = try scan?.move(to: row) ?? false
                try deliver(.categorySample(CategorySample(sample: session, value: SleepStage.session(hasStages: hasStages))))
                try scan?.forEach(of: row) { child, index in try deliver(try stage(child, of: attributes, index: index, row: row)) }
            case .bloodPressure:
                for object in try bloodPressure(parents, attributes: attributes, row: row) { try deliver(object) }
            case .nutrition:
                for object in try food(parents, attributes: attributes, row: row) { try deliver(object) }
            case .mindfulnessSession:
                var session = attributes
                session.metadata.entries += MindfulnessSession.metadata(type: try code(parents, column: "type", row: row))
                addSessionText(parents, from: index(of: "title"), to: &session)
                try deliver(.categorySample(CategorySample(sample: session, value: .namedNotApplicable)))
            case .plannedExerciseSession:
                try deliver(.categorySample(try plannedSession(parents, attributes: attributes, row: row)))
            case .skinTemperature:
                let scan = children.first.flatMap { scans[$0.name] }
                try skinTemperature(parents, attributes: attributes, deltas: scan, row: row, deliver: deliver)
            case .activityIntensity:
                guard let type = try code(parents, column: "type", row: row) else {
                    throw invalid("no intensity type", row: row, column: "type")
                }
                try deliver(.categorySample(CategorySample(sample: attributes, value: ActivityIntensity.value(ofType: type))))
            case .exerciseSession:
                var workout = try workout(parents, attributes: attributes, row: row)
                if let routes = scans["exercise_route_table"] { try addRoute(routes, to: &workout, row: row) }
                if let laps = scans["exercise_laps_table"] { try addLaps(laps, to: &workout, row: row) }
                if let segments = scans["exercise_segments_table"] {
                    try addSegments(segments, to: &workout, row: row)
                    // HealthKit's events are in time order; laps and segments interleave. The
                    // sort is stable: events of one time keep the order they were read in.
                    workout.workoutEvents = Self.inTimeOrder(workout.workoutEvents)
                }
                try deliver(.workout(workout))
            }
        }
        return count
    }

    /// What every record has: its uuid, type, source, device, times and metadata.
    private func sampleAttributes(_ row: ReadOnlyDatabase.Statement, row id: Int64) throws -> SampleAttributes {
        guard let bytes = row.blob(Column.uuid, exactly: 16) else { throw invalid("a uuid that is not 16 bytes", row: id, column: "uuid") }
        let instant = table.layout.isInstant
        let start = try RecordTime.checked(
            millis: row.int64(Column.time), offset: row.int64(Column.offset), table: table.name, row: id, column: instant ? "time" : "start_time")
        var end = start
        if !instant {
            end = try RecordTime.checked(
                millis: row.int64(Column.end), offset: row.int64(Column.endOffset), table: table.name, row: id, column: "end_time")
        }
        guard end >= start else { throw invalid("an end before its start", row: id, column: "end_time") }
        let app = row.int64(Column.app)
        var metadata: [MetadataEntry] = []
        let method = row.optionalInt64(Column.method)
        if method == 3 { metadata.append(MetadataEntry(key: "HKWasUserEntered", value: .number(ExportNumber(1)))) }
        if let method { metadata.append(MetadataEntry(key: HealthConnectMetadataKeys.recordingMethod, value: .string(String(method)))) }
        if let client = row.text(Column.client, limit: limits.textBytes) {
            metadata.append(MetadataEntry(key: HealthConnectMetadataKeys.clientRecordID, value: .string(client)))
        } else if row.textLength(Column.client) > limits.textBytes {
            throw HealthConnectError(.limitExceeded, "a client record id longer than \(limits.textBytes) bytes", table: table.name, row: id, column: "client_record_id")
        }
        if let modified = row.optionalInt64(Column.modified), RecordTime.problem(millis: modified, offset: row.int64(Column.offset)) == nil {
            let date = RecordTime.timestamp(millis: modified, offset: row.int64(Column.offset))
            metadata.append(MetadataEntry(key: HealthConnectMetadataKeys.lastModifiedDate, value: .date(date)))
        }
        let type: ObjectType
        switch table.layout {
        case .sleepSession, .cycleTracking, .mindfulnessSession, .activityIntensity, .plannedExerciseSession:
            type = ObjectType(identifier: table.typeIdentifier, kind: .category)
        case .exerciseSession: type = .workout
        case .bloodPressure, .nutrition: type = ObjectType(identifier: table.typeIdentifier, kind: .correlation)
        default: type = ObjectType(identifier: table.typeIdentifier, kind: .quantity)
        }
        return SampleAttributes(
            uuid: Self.uuid(bytes), sampleType: type,
            sourceRevision: SourceRevision(source: provenance.sources[app] ?? Provenance.unknownSource),
            device: row.optionalInt64(Column.device).flatMap { provenance.devices[$0] }, startDate: start, endDate: end,
            metadata: Metadata(metadata))
    }

    /// A stored value in the written unit.
    private func quantity(_ stored: Double) -> Quantity {
        let value = stored * table.factor
        return Quantity(value: ExportNumber(value), unit: table.unit)
    }

    /// A series reading as a sample of its own: the record's source, device and metadata, its
    /// own time, and a uuid derived from the record's and its place among the readings (so it
    /// too is the same in every export).
    private func reading(_ child: ReadOnlyDatabase.Statement, of parent: SampleAttributes, index: Int, row: Int64) throws -> HealthObject {
        let name = children[0].name
        var sample = parent
        sample.uuid = Self.childUUID(of: parent.uuid, index: index)
        let time = try RecordTime.checked(
            millis: child.int64(2), offset: Int64(parent.startDate.utcOffsetSeconds), table: name, row: row, column: "epoch_millis")
        guard case .value(let stored) = child.number(1) else {
            throw HealthConnectError(.invalidValue, "no value, or not a number", table: name, row: row, column: children[0].columns[1])
        }
        sample.startDate = time
        sample.endDate = time
        return .quantitySample(QuantitySample(sample: sample, quantity: quantity(stored)))
    }

    /// A sleep stage as a sample of its own (`SleepStage`), its uuid made as a reading's.
    private func stage(_ child: ReadOnlyDatabase.Statement, of parent: SampleAttributes, index: Int, row: Int64) throws -> HealthObject {
        let name = children[0].name
        var sample = parent
        sample.uuid = Self.childUUID(of: parent.uuid, index: index)
        let offset = Int64(parent.startDate.utcOffsetSeconds)
        sample.startDate = try RecordTime.checked(millis: child.int64(1), offset: offset, table: name, row: row, column: "stage_start_time")
        sample.endDate = try RecordTime.checked(millis: child.int64(2), offset: offset, table: name, row: row, column: "stage_end_time")
        guard sample.endDate >= sample.startDate else {
            throw HealthConnectError(.invalidValue, "a stage that ends before it starts", table: name, row: row, column: "stage_end_time")
        }
        let code = child.int64(3)
        sample.metadata.entries.append(MetadataEntry(key: HealthConnectMetadataKeys.sleepStage, value: .string(String(code))))
        return .categorySample(CategorySample(sample: sample, value: SleepStage.value(ofStage: code)))
    }

    /// A blood pressure record as HealthKit keeps one: its systolic and diastolic samples (uuids
    /// made from the record's), then the correlation, with the record's uuid, that holds them,
    /// as Apple's exports list them.
    private func bloodPressure(_ row: ReadOnlyDatabase.Statement, attributes: SampleAttributes, row id: Int64) throws -> [HealthObject] {
        func member(_ column: String, type: String) throws -> QuantitySample {
            guard case .value(let value) = row.number(index(of: column)) else {
                throw invalid("no value, or not a number", row: id, column: column)
            }
            var sample = attributes
            sample.uuid = Self.childUUID(of: attributes.uuid, index: 0, kind: column)
            sample.sampleType = ObjectType(identifier: type, kind: .quantity)
            return QuantitySample(sample: sample, quantity: quantity(value))
        }
        let systolic = try member("systolic", type: RecordTable.BloodPressure.systolic)
        let diastolic = try member("diastolic", type: RecordTable.BloodPressure.diastolic)
        let correlation = Correlation(sample: attributes, objects: [.quantity(systolic), .quantity(diastolic)])
        return [.quantitySample(systolic), .quantitySample(diastolic), .correlation(correlation)]
    }

    /// A nutrition record as HealthKit keeps a food (`Nutrition`): a dietary sample per nutrient
    /// set (uuids made from the record's and the nutrient's column), then the food correlation,
    /// with the record's uuid, that holds them, as Apple's exports list them; the meal's name and
    /// type on all of them.
    private func food(_ row: ReadOnlyDatabase.Statement, attributes: SampleAttributes, row id: Int64) throws -> [HealthObject] {
        var record = attributes
        let nameColumn = index(of: "meal_name")
        let name = row.text(nameColumn, limit: limits.textBytes)
        if name == nil, row.textLength(nameColumn) > limits.textBytes {
            throw HealthConnectError(.limitExceeded, "a meal name longer than \(limits.textBytes) bytes", table: table.name, row: id, column: "meal_name")
        }
        record.metadata.entries += Nutrition.metadata(mealType: try code(row, column: "meal_type", row: id), name: name)
        let first = index(of: Nutrition.nutrients[0].column)
        var members: [QuantitySample] = []
        for (offset, nutrient) in Nutrition.nutrients.enumerated() {
            let stored: Double
            switch row.number(first + Int32(offset)) {
            case .null: continue
            case .notANumber: throw invalid("not a number", row: id, column: nutrient.column)
            case .value(let value): stored = value
            }
            guard let amount = Nutrition.amount(stored, of: nutrient) else { continue }
            var sample = record
            sample.uuid = Self.childUUID(of: attributes.uuid, index: 0, kind: nutrient.column)
            sample.sampleType = ObjectType(identifier: nutrient.typeIdentifier, kind: .quantity)
            members.append(QuantitySample(sample: sample, quantity: Quantity(value: ExportNumber(amount), unit: nutrient.unit)))
        }
        let food = Correlation(sample: record, objects: members.map { .quantity($0) })
        return members.map { .quantitySample($0) } + [.correlation(food)]
    }

    /// A planned exercise session as a category sample over the planned interval
    /// (`PlannedExerciseSession`); its completed session's uuid, when set, must be a uuid.
    private func plannedSession(_ row: ReadOnlyDatabase.Statement, attributes: SampleAttributes, row id: Int64) throws -> CategorySample {
        var plan = attributes
        let completedColumn = index(of: "completed_session_id")
        var completed: ObjectUUID? = nil
        if !row.isNull(completedColumn) {
            guard let bytes = row.blob(completedColumn, exactly: 16) else {
                throw invalid("a completed session id that is not a 16-byte uuid", row: id, column: "completed_session_id")
            }
            completed = Self.uuid(bytes)
        }
        plan.metadata.entries += PlannedExerciseSession.metadata(
            exerciseType: try code(row, column: "exercise_type", row: id), hasExplicitTime: try code(row, column: "has_explicit_time", row: id),
            completedSession: completed)
        addSessionText(row, from: index(of: "title"), to: &plan)
        return CategorySample(sample: plan, value: .namedNotApplicable)
    }

    /// A skin temperature record as its baseline, when it has one, then its deltas, each as it
    /// is read (`SkinTemperature`): the deltas are a series, held no more than a series is.
    private func skinTemperature(
        _ row: ReadOnlyDatabase.Statement, attributes: SampleAttributes, deltas scan: ChildScan?, row id: Int64,
        deliver: (HealthObject) throws -> Void
    ) throws {
        var record = attributes
        record.metadata.entries += SkinTemperature.metadata(location: try code(row, column: "measurement_location", row: id))
        let baseline: Double?
        switch row.number(index(of: "baseline")) {
        case .null: baseline = nil
        case .notANumber: throw invalid("not a number", row: id, column: "baseline")
        case .value(let stored): baseline = NotSet.filtered(stored)
        }
        var reading = record
        if let baseline {
            var sample = record
            sample.sampleType = ObjectType(identifier: SkinTemperature.baselineType, kind: .quantity)
            try deliver(.quantitySample(QuantitySample(sample: sample, quantity: SkinTemperature.baseline(baseline))))
            reading.metadata.entries.append(
                MetadataEntry(key: HealthConnectMetadataKeys.skinTemperatureBaseline, value: .quantity(SkinTemperature.baseline(baseline))))
        }
        try scan?.forEach(of: id) { child, index in try deliver(try self.reading(child, of: reading, index: index, row: id)) }
    }

    /// The session's route (`exercise_route_table`) as the workout's one route, its points
    /// inline, at most `limits.routePoints` of them.
    private func addRoute(_ scan: ChildScan, to workout: inout Workout, row: Int64) throws {
        var locations: [RouteLocation] = []
        let offset = Int64(workout.sample.startDate.utcOffsetSeconds)
        try scan.forEach(of: row) { point, _ in
            guard locations.count < limits.routePoints else {
                throw HealthConnectError(.limitExceeded, "a route of more than \(limits.routePoints) points", table: scan.table.name, row: row)
            }
            let time = try RecordTime.checked(millis: point.int64(1), offset: offset, table: scan.table.name, row: row, column: "timestamp_millis")
            guard let latitude = point.optionalDouble(2), let longitude = point.optionalDouble(3), abs(latitude) <= 90, abs(longitude) <= 180 else {
                throw HealthConnectError(.invalidValue, "a point off the globe", table: scan.table.name, row: row, column: "latitude")
            }
            // An altitude or accuracy the app did not give is stored as AOSP's "not set".
            func number(_ column: Int32) -> ExportNumber? {
                point.optionalDouble(column).flatMap { $0.isFinite ? NotSet.filtered($0).map { ExportNumber($0) } : nil }
            }
            locations.append(
                RouteLocation(
                    date: time, latitude: ExportNumber(latitude), longitude: ExportNumber(longitude), altitude: number(4),
                    horizontalAccuracy: number(5), verticalAccuracy: number(6)))
        }
        guard !locations.isEmpty else { return }
        var sample = workout.sample
        sample.uuid = Self.childUUID(of: workout.sample.uuid, index: 0, kind: "route")
        sample.sampleType = .workoutRoute
        sample.startDate = locations.first?.date ?? sample.startDate
        sample.endDate = locations.last?.date ?? sample.endDate
        workout.routes.append(WorkoutRoute(sample: sample, locations: locations))
    }

    /// The session's laps (`exercise_laps_table`) as the workout's lap events, each with its
    /// duration and, in metadata, its length in metres.
    private func addLaps(_ scan: ChildScan, to workout: inout Workout, row: Int64) throws {
        let offset = Int64(workout.sample.startDate.utcOffsetSeconds)
        try scan.forEach(of: row) { lap, index in
            guard index < limits.laps else {
                throw HealthConnectError(.limitExceeded, "more than \(limits.laps) laps", table: scan.table.name, row: row)
            }
            let start = try RecordTime.checked(millis: lap.int64(1), offset: offset, table: scan.table.name, row: row, column: "lap_start_time")
            let end = try RecordTime.checked(millis: lap.int64(2), offset: offset, table: scan.table.name, row: row, column: "lap_end_time")
            guard end >= start else {
                throw HealthConnectError(.invalidValue, "a lap that ends before it starts", table: scan.table.name, row: row, column: "lap_end_time")
            }
            var metadata: [MetadataEntry] = []
            if let length = lap.optionalDouble(3), length.isFinite {
                metadata.append(MetadataEntry(key: HealthConnectMetadataKeys.lapLength, value: .quantity(Quantity(value: ExportNumber(length), unit: "m"))))
            }
            let minutes = Double(end.secondsSince1970 - start.secondsSince1970) / 60
            workout.workoutEvents.append(
                WorkoutEvent(
                    type: WorkoutEventType(name: "HKWorkoutEventTypeLap"), date: start, duration: Quantity(value: ExportNumber(minutes), unit: "min"),
                    metadata: Metadata(metadata)))
        }
    }

    /// The session's segments (`exercise_segments_table`: a set, a rest, an interval) as the
    /// workout's segment events (`HKWorkoutEventTypeSegment`), each with its duration and, in
    /// metadata, its type code and repetitions, which HealthKit's segment has no place for.
    private func addSegments(_ scan: ChildScan, to workout: inout Workout, row: Int64) throws {
        let offset = Int64(workout.sample.startDate.utcOffsetSeconds)
        let name = scan.table.name
        try scan.forEach(of: row) { segment, index in
            guard index < limits.segments else {
                throw HealthConnectError(.limitExceeded, "more than \(limits.segments) segments", table: name, row: row)
            }
            let start = try RecordTime.checked(millis: segment.int64(1), offset: offset, table: name, row: row, column: "segment_start_time")
            let end = try RecordTime.checked(millis: segment.int64(2), offset: offset, table: name, row: row, column: "segment_end_time")
            guard end >= start else {
                throw HealthConnectError(.invalidValue, "a segment that ends before it starts", table: name, row: row, column: "segment_end_time")
            }
            var metadata: [MetadataEntry] = []
            for (column, key) in [(Int32(3), HealthConnectMetadataKeys.exerciseSegmentType), (4, HealthConnectMetadataKeys.repetitions)] {
                switch segment.code(column) {
                case .null: break
                case .value(let value): metadata.append(MetadataEntry(key: key, value: .string(String(value))))
                case .notACode:
                    throw HealthConnectError(.invalidValue, "not a whole number", table: name, row: row, column: scan.table.columns[Int(column)])
                }
            }
            let minutes = Double(end.secondsSince1970 - start.secondsSince1970) / 60
            workout.workoutEvents.append(
                WorkoutEvent(
                    type: WorkoutEventType(name: "HKWorkoutEventTypeSegment"), date: start,
                    duration: Quantity(value: ExportNumber(minutes), unit: "min"), metadata: Metadata(metadata)))
        }
    }

    /// Events sorted by date, stably.
    static func inTimeOrder(_ events: [WorkoutEvent]) -> [WorkoutEvent] {
        events.enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }.map(\.element)
    }

    /// An exercise session as a workout: its activity type (`ExerciseType`), its duration, and
    /// its title and notes.
    private func workout(_ row: ReadOnlyDatabase.Statement, attributes: SampleAttributes, row id: Int64) throws -> Workout {
        var sample = attributes
        let code = row.int64(index(of: "exercise_type"))
        let activity = ExerciseType.activity(ofCode: code)
        sample.metadata.entries.append(MetadataEntry(key: HealthConnectMetadataKeys.exerciseType, value: .string(String(code))))
        if activity.indoor { sample.metadata.entries.append(MetadataEntry(key: "HKIndoorWorkout", value: .number(ExportNumber(1)))) }
        addSessionText(row, from: index(of: "title"), to: &sample)
        let seconds = Double(sample.endDate.secondsSince1970 - sample.startDate.secondsSince1970)
        return Workout(sample: sample, workoutActivityType: activity.type, duration: Quantity(value: ExportNumber(seconds / 60), unit: "min"))
    }

    /// A session's title and notes (the columns `title`, `notes` from `column` on), into metadata.
    private func addSessionText(_ row: ReadOnlyDatabase.Statement, from column: Int32, to sample: inout SampleAttributes) {
        if let title = row.text(column, limit: limits.textBytes), !title.isEmpty {
            sample.metadata.entries.append(MetadataEntry(key: HealthConnectMetadataKeys.title, value: .string(title)))
        }
        if let notes = row.text(column + 1, limit: limits.textBytes), !notes.isEmpty {
            sample.metadata.entries.append(MetadataEntry(key: HealthConnectMetadataKeys.notes, value: .string(notes)))
        }
    }

    /// The position of one of the table's own columns in the reader's query.
    private func index(of column: String) -> Int32 {
        guard let position = columns.firstIndex(of: column) else {
            preconditionFailure("\(column) is not among \(table.name)'s columns the reader selects")
        }
        return Int32(position)
    }

    /// A code column's value (`nil` for NULL); a value that is no whole number is refused with
    /// its place, as any damaged value is.
    private func code(_ row: ReadOnlyDatabase.Statement, column: String, row id: Int64) throws(HealthConnectError) -> Int64? {
        switch row.code(index(of: column)) {
        case .null: return nil
        case .value(let code): return code
        case .notACode: throw invalid("a code that is not a whole number", row: id, column: column)
        }
    }

    private func invalid(_ message: String, row: Int64, column: String?) -> HealthConnectError {
        HealthConnectError(.invalidValue, message, table: table.name, row: row, column: column)
    }

    /// The record's uuid as stored: 16 bytes, most significant first (`java.util.UUID`'s order).
    static func uuid(_ bytes: [UInt8]) -> ObjectUUID {
        var high: UInt64 = 0, low: UInt64 = 0
        for i in 0..<8 { high = high << 8 | UInt64(bytes[i]) }
        for i in 8..<16 { low = low << 8 | UInt64(bytes[i]) }
        return ObjectUUID(high: high, low: low)
    }

    /// A child's uuid: SHA-256 of its record's uuid, what kind of child it is, and its place
    /// among the record's children of that kind (`ObjectIdentity.digest`).
    static func childUUID(of parent: ObjectUUID, index: Int, kind: String = "child") -> ObjectUUID {
        var bytes: [UInt8] = []
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: parent.high >> UInt64(shift))) }
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: parent.low >> UInt64(shift))) }
        bytes += Array("healthconnect-\(kind)".utf8)
        return bytes.withUnsafeBytes { ObjectIdentity.digest(of: $0, ordinal: index).0 }
    }
}
