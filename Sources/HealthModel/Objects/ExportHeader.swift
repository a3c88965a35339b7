/// What the export says about itself before its first object.
public struct ExportHeader: Hashable, Sendable {
    /// `HealthData@locale`: `en_US`, `ru_RU`, …
    public var locale: String?
    /// When the export was made, with the phone's offset at that moment, which every other date
    /// in the file shares (quirk Q3).
    public var exportDate: ExportTimestamp?
    /// The `HealthKit Export Version: N` comment of the DTD; `nil` without a DTD. Not a reliable
    /// schema key: the DTD changed without the number changing.
    public var exportVersion: Int?
    public var characteristics: Characteristics?
    /// The person's zone, in which an output of healthport's gave the local times of the
    /// samples that name none (`LocalTimes`): the header of healthport's own NDJSON and JSON
    /// says so, and reading such a file back gives the same local times. `nil` for Apple's
    /// exports, which have no such zone.
    public var timeZone: String?
    /// A Health Connect export's priority list (`HealthConnectPriority`), which decides its
    /// totals; `nil` for Apple's exports, whose totals follow the Health app's tiers.
    public var healthConnectPriority: HealthConnectPriority?
    /// Who the objects are of, as an output may name the person; set by the query's gate, `nil`
    /// in what a reader delivers (an export names no one). Under `--deidentify`, the person's
    /// keyed pseudonym (`person-3f9a1c2b7d04`), never derived from a characteristic (a birth
    /// date hashed into an id could be found again by trying every date); otherwise derived
    /// from the sex and birth date the consumer may see (`PersonIdentity`). FHIR's Patient takes
    /// it as its id and Open mHealth's data points as their `user_id`, so every resource says
    /// whose data it is even when it shows no characteristic.
    public var personID: String?
    /// The phone's health store the export comes from (`ExportPlatform`): Apple's unless a
    /// reader of another says so.
    public var platform: ExportPlatform = .appleHealth

    public init(
        locale: String? = nil, exportDate: ExportTimestamp? = nil, exportVersion: Int? = nil,
        characteristics: Characteristics? = nil, timeZone: String? = nil, healthConnectPriority: HealthConnectPriority? = nil,
        personID: String? = nil, platform: ExportPlatform = .appleHealth
    ) {
        self.platform = platform
        self.healthConnectPriority = healthConnectPriority
        self.locale = locale
        self.exportDate = exportDate
        self.exportVersion = exportVersion
        self.characteristics = characteristics
        self.timeZone = timeZone
        self.personID = personID
    }
}
