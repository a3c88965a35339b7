/// A numeric sample (HealthKit: `HKQuantitySample`), from a `Record` with a quantity type.
public struct QuantitySample: Hashable, Sendable {
    public var sample: SampleAttributes
    public var quantity: Quantity
    /// Individual quantities represented; always 1 in exports (series are not exported).
    public var count: Int
    /// The beat-by-beat readings an Apple Watch HRV sample carries
    /// (`HeartRateVariabilityMetadataList`); empty for every other sample.
    public var instantaneousBeatsPerMinute: [InstantaneousBeatsPerMinute]

    public init(
        sample: SampleAttributes, quantity: Quantity, count: Int = 1,
        instantaneousBeatsPerMinute: [InstantaneousBeatsPerMinute] = []
    ) {
        self.sample = sample
        self.quantity = quantity
        self.count = count
        self.instantaneousBeatsPerMinute = instantaneousBeatsPerMinute
    }
}

/// One beat of an HRV sample's list.
///
/// The export prints only a localized time of day (`11:26:02.34 AM`, `08:33:44,67`,
/// U+202F before the day period on recent iOS), in the phone's local time at the beat, which
/// need not be the export's offset (quirk Q3). `time` keeps that text; `date` places it on the
/// time line when it can be read (see `BeatTimeResolver`).
public struct InstantaneousBeatsPerMinute: Hashable, Sendable {
    public var bpm: ExportNumber
    /// The time of day as exported.
    public var time: String
    /// The instant, in whole seconds, in the sample's printed offset; `nil` if `time` did not parse.
    public var date: ExportTimestamp?
    /// Hundredths of a second past `date`, as printed.
    public var hundredths: Int?

    public init(bpm: ExportNumber, time: String, date: ExportTimestamp? = nil, hundredths: Int? = nil) {
        self.bpm = bpm
        self.time = time
        self.date = date
        self.hundredths = hundredths
    }
}
