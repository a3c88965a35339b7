/// One night's sleep, as the Health app sums it: time in bed, asleep (and in each stage), awake,
/// when sleep began and ended, and the sources that counted.
///
/// A night is named by the date of the morning it ends, and a date filter selects whole nights
/// by that date. Naps (daytime sleep of less than three hours) are counted apart, on their day. Where several sources cover the same
/// time (a Watch's stages, a sleep app's asleep intervals, an iPhone's in-bed interval around
/// them) the time counts once: asleep and awake time goes to the highest-priority source
/// covering it, in its most precise stage; time in bed is the union of the in-bed intervals.
/// Durations are seconds.
public struct SleepNight: Sendable, Equatable {
    /// The date of the morning the night ends.
    public var night: CalendarDate
    /// Time in bed (the union of the in-bed intervals); `nil` when no source recorded one (watchOS
    /// 11 writes a night's stages without one).
    public var inBed: Double?
    /// Time asleep: unspecified, core, deep and REM together.
    public var asleep: Double
    public var asleepUnspecified: Double
    public var asleepCore: Double
    public var asleepDeep: Double
    public var asleepREM: Double
    /// Time awake within the night's sleep records.
    public var awake: Double
    /// When the first asleep time began and the last ended, in the night's time zone; `nil`
    /// for a night with time in bed only.
    public var sleepStart: ExportTimestamp?
    public var sleepEnd: ExportTimestamp?
    /// Time asleep in the day's naps: sleep that begins in the daytime (10:00 to the evening
    /// boundary) with less than three hours of it, never part of the night's figures.
    public var naps: Double
    /// The sources whose samples counted, by name, sorted.
    public var sources: [String]
    /// The samples that counted (the night's and its naps'): the day's `count` in the daily
    /// summary. Not a column of the nights' table.
    public var sampleCount: Int

    /// An empty night: what a table's header row is made from.
    public static func empty(_ night: CalendarDate) -> SleepNight {
        SleepNight(
            night: night, inBed: nil, asleepUnspecified: 0, asleepCore: 0, asleepDeep: 0, asleepREM: 0, awake: 0, sleepStart: nil,
            sleepEnd: nil, naps: 0, sources: [])
    }

    public init(
        night: CalendarDate, inBed: Double?, asleepUnspecified: Double, asleepCore: Double, asleepDeep: Double, asleepREM: Double,
        awake: Double, sleepStart: ExportTimestamp?, sleepEnd: ExportTimestamp?, naps: Double = 0, sources: [String], sampleCount: Int = 0
    ) {
        self.night = night
        self.inBed = inBed
        self.asleepUnspecified = asleepUnspecified
        self.asleepCore = asleepCore
        self.asleepDeep = asleepDeep
        self.asleepREM = asleepREM
        self.asleep = asleepUnspecified + asleepCore + asleepDeep + asleepREM
        self.awake = awake
        self.sleepStart = sleepStart
        self.sleepEnd = sleepEnd
        self.naps = naps
        self.sources = sources
        self.sampleCount = sampleCount
    }
}
