/// A workout (HealthKit: `HKWorkout`) with its events, activities, statistics and routes.
///
/// `duration` is the active time *excluding pauses*, as exported; `endDate − startDate`
/// includes them. Recent exports drop `totalDistance` and `totalEnergyBurned` even for old
/// workouts and carry the totals in `statistics` instead (quirk Q9); both are kept as found.
public struct Workout: Hashable, Sendable {
    public var sample: SampleAttributes
    public var workoutActivityType: WorkoutActivityType
    public var duration: Quantity?
    public var totalDistance: Quantity?
    public var totalEnergyBurned: Quantity?
    public var workoutEvents: [WorkoutEvent]
    public var workoutActivities: [WorkoutActivity]
    public var statistics: [WorkoutStatistics]
    public var routes: [WorkoutRoute]

    public init(
        sample: SampleAttributes, workoutActivityType: WorkoutActivityType, duration: Quantity? = nil,
        totalDistance: Quantity? = nil, totalEnergyBurned: Quantity? = nil,
        workoutEvents: [WorkoutEvent] = [], workoutActivities: [WorkoutActivity] = [],
        statistics: [WorkoutStatistics] = [], routes: [WorkoutRoute] = []
    ) {
        self.sample = sample
        self.workoutActivityType = workoutActivityType
        self.duration = duration
        self.totalDistance = totalDistance
        self.totalEnergyBurned = totalEnergyBurned
        self.workoutEvents = workoutEvents
        self.workoutActivities = workoutActivities
        self.statistics = statistics
        self.routes = routes
    }
}

extension Workout {
    /// The workout's total distance as HealthKit gives it: the export's `totalDistance`, else
    /// (recent exports keep totals only in the statistics, quirk Q9) the sum of its distance
    /// statistic, as `HKWorkout.totalDistance` is filled from `statistics(for:)` since iOS 16.
    public var effectiveTotalDistance: Quantity? {
        totalDistance ?? statisticsSum { $0.hasPrefix("HKQuantityTypeIdentifierDistance") }
    }

    /// The workout's active energy as HealthKit gives it: `totalEnergyBurned`, else the sum of
    /// its active-energy statistic.
    public var effectiveTotalEnergyBurned: Quantity? {
        totalEnergyBurned ?? statisticsSum { $0 == "HKQuantityTypeIdentifierActiveEnergyBurned" }
    }

    private func statisticsSum(_ isType: (String) -> Bool) -> Quantity? {
        guard let s = statistics.first(where: { isType($0.quantityType.identifier) }), let sum = s.sum, let unit = s.unit else {
            return nil
        }
        return Quantity(value: sum, unit: unit)
    }
}

/// A pause, resume, lap, marker or segment (HealthKit: `HKWorkoutEvent`).
public struct WorkoutEvent: Hashable, Sendable {
    public var type: WorkoutEventType
    public var date: ExportTimestamp
    /// Laps and segments have one; pauses, resumes and markers do not.
    public var duration: Quantity?
    public var metadata: Metadata
    public var extensions: Extensions

    public init(
        type: WorkoutEventType, date: ExportTimestamp, duration: Quantity? = nil,
        metadata: Metadata = Metadata(), extensions: Extensions = .none
    ) {
        self.type = type
        self.date = date
        self.duration = duration
        self.metadata = metadata
        self.extensions = extensions
    }
}

/// One activity of a (possibly multisport or interval) workout (HealthKit: `HKWorkoutActivity`,
/// iOS 16). Its `uuid` is the only real HealthKit uuid an export carries, kept as printed.
public struct WorkoutActivity: Hashable, Sendable {
    public var uuid: String
    public var startDate: ExportTimestamp
    public var endDate: ExportTimestamp?
    public var duration: Quantity?
    public var metadata: Metadata
    public var workoutEvents: [WorkoutEvent]
    public var statistics: [WorkoutStatistics]
    public var extensions: Extensions

    public init(
        uuid: String, startDate: ExportTimestamp, endDate: ExportTimestamp? = nil,
        duration: Quantity? = nil, metadata: Metadata = Metadata(), workoutEvents: [WorkoutEvent] = [],
        statistics: [WorkoutStatistics] = [], extensions: Extensions = .none
    ) {
        self.uuid = uuid
        self.startDate = startDate
        self.endDate = endDate
        self.duration = duration
        self.metadata = metadata
        self.workoutEvents = workoutEvents
        self.statistics = statistics
        self.extensions = extensions
    }
}

/// Statistics of one quantity type over a workout or activity (HealthKit: `HKStatistics`):
/// `sum` for cumulative types, `average`/`minimum`/`maximum` for discrete ones.
public struct WorkoutStatistics: Hashable, Sendable {
    public var quantityType: ObjectType
    public var startDate: ExportTimestamp
    public var endDate: ExportTimestamp
    public var average: ExportNumber?
    public var minimum: ExportNumber?
    public var maximum: ExportNumber?
    public var sum: ExportNumber?
    public var unit: String?
    public var extensions: Extensions

    public init(
        quantityType: ObjectType, startDate: ExportTimestamp, endDate: ExportTimestamp,
        average: ExportNumber? = nil, minimum: ExportNumber? = nil, maximum: ExportNumber? = nil,
        sum: ExportNumber? = nil, unit: String? = nil, extensions: Extensions = .none
    ) {
        self.quantityType = quantityType
        self.startDate = startDate
        self.endDate = endDate
        self.average = average
        self.minimum = minimum
        self.maximum = maximum
        self.sum = sum
        self.unit = unit
        self.extensions = extensions
    }

    /// The figures a statistics can hold, each with its name, in the order healthport's JSON
    /// and tables write them (`sum` first: a cumulative type has only it): the one list both go
    /// through. Apple's `export.xml` writes them in another order (`average` first), its own.
    public static let figures: [(name: String, keyPath: WritableKeyPath<WorkoutStatistics, ExportNumber?> & Sendable)] = [
        ("sum", \.sum), ("average", \.average), ("minimum", \.minimum), ("maximum", \.maximum),
    ]
}

/// A workout's GPS route (HealthKit: `HKWorkoutRoute`, a series sample of its own).
///
/// Since iOS 13 the points live in a GPX file named by `fileReference` (a path with a leading
/// slash, relative to the export folder); older exports list `Location`s inline.
public struct WorkoutRoute: Hashable, Sendable {
    public var sample: SampleAttributes
    public var fileReference: String?
    public var locations: [RouteLocation]

    public init(sample: SampleAttributes, fileReference: String? = nil, locations: [RouteLocation] = []) {
        self.sample = sample
        self.fileReference = fileReference
        self.locations = locations
    }
}

/// One inline route point of a pre-iOS 13 export (`Location`). `course == -1` means invalid.
public struct RouteLocation: Hashable, Sendable {
    public var date: ExportTimestamp?
    public var latitude: ExportNumber?
    public var longitude: ExportNumber?
    public var altitude: ExportNumber?
    public var horizontalAccuracy: ExportNumber?
    public var verticalAccuracy: ExportNumber?
    public var course: ExportNumber?
    public var speed: ExportNumber?

    public init(
        date: ExportTimestamp? = nil, latitude: ExportNumber? = nil, longitude: ExportNumber? = nil,
        altitude: ExportNumber? = nil, horizontalAccuracy: ExportNumber? = nil,
        verticalAccuracy: ExportNumber? = nil, course: ExportNumber? = nil, speed: ExportNumber? = nil
    ) {
        self.date = date
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.course = course
        self.speed = speed
    }

    /// The point's numbers after its date, each with its attribute name, in the export's order:
    /// the one list the XML, JSON and table writers and the JSON reader go through.
    public static let numbers: [(name: String, keyPath: WritableKeyPath<RouteLocation, ExportNumber?> & Sendable)] = [
        ("latitude", \.latitude), ("longitude", \.longitude), ("altitude", \.altitude),
        ("horizontalAccuracy", \.horizontalAccuracy), ("verticalAccuracy", \.verticalAccuracy),
        ("course", \.course), ("speed", \.speed),
    ]
}
