import HealthModel

/// What a report shows, as a value: everything an HTML page (or any other face) needs, already
/// limited by the query and its policy, already reduced to a size a browser opens at once.
///
/// It holds no raw samples: per type, the statistics per day (or week, or month for long
/// series); sleep per night; the workouts and the first seconds of each ECG. A type that the
/// policy denies never reaches it, so no rendering can leak it (no section, no count, no
/// legend entry).
public struct HealthReport: Sendable {
    /// The first and last start dates of the objects shown (ISO 8601, with their offsets).
    public var period: (first: String, last: String)?
    /// The zone days and nights are cut in (an identifier or an offset such as `GMT+0100`).
    public var timeZone: String
    /// Whether an authorization policy limited what the report shows.
    public var isUnderPolicy: Bool
    public var overview: Overview
    /// A typical day of each week or month, from the day table (`nil` without a day to show).
    public var averages: ReportAverages?
    /// Quantity types (and stand hours), one series each.
    public var series: [TypeSeries]
    public var sleep: [ReportSleepNight]
    public var bloodPressure: [BloodPressureReading]
    public var workouts: [WorkoutEntry]
    public var electrocardiograms: [ElectrocardiogramTrace]
    /// What the export's reader met (as `healthport info` reports it); `nil` for the store.
    public var quality: DataQuality?

    public init(timeZone: String, isUnderPolicy: Bool) {
        self.timeZone = timeZone
        self.isUnderPolicy = isUnderPolicy
        overview = Overview()
        series = []
        sleep = []
        bloodPressure = []
        workouts = []
        electrocardiograms = []
    }
}

/// Counts by source, device and type, as `healthport info` lists them.
public struct Overview: Sendable {
    public struct Count: Sendable {
        public var name: String
        public var count: Int
        public init(name: String, count: Int) {
            self.name = name
            self.count = count
        }
    }

    public struct TypeCount: Sendable {
        public var identifier: String
        public var kind: String
        public var count: Int
        public var first: String?
        public var last: String?
        public init(identifier: String, kind: String, count: Int, first: String?, last: String?) {
            self.identifier = identifier
            self.kind = kind
            self.count = count
            self.first = first
            self.last = last
        }
    }

    public var objectCount = 0
    public var sources: [Count] = []
    public var devices: [Count] = []
    public var types: [TypeCount] = []
    public init() {}
}

/// What `healthport info` reports about how the export was read.
public struct DataQuality: Sendable {
    public var input: String
    public var container: String
    public var exportDate: String?
    public var replacedByteCount = 0
    public var missingRouteFiles = 0
    public var missingClinicalRecordFiles = 0
    public var workoutRouteFiles = 0
    public var electrocardiogramFiles = 0
    public var clinicalRecordFiles = 0
    /// Elements outside healthport's model, by name.
    public var passedThrough: [Overview.Count] = []
    /// The reader's warnings, each with how often it was met.
    public var warnings: [Overview.Count] = []

    public init(input: String, container: String) {
        self.input = input
        self.container = container
    }
}
