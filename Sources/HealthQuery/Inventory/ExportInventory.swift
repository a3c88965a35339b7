import HealthModel

/// What an export holds, tallied object by object in constant memory per distinct type,
/// source and device: what `healthport info` prints.
public struct ExportInventory: Sendable, Codable {
    public struct TypeEntry: Sendable, Codable {
        public var type: String
        public var kind: String
        public var count: Int
        /// The earliest and latest start, kept as instants and printed only when read: an
        /// export's objects come mostly in time order, so the latest changes with nearly every
        /// object, and formatting it each time was a tenth of a report's run.
        var firstStart: ExportTimestamp?
        var lastStart: ExportTimestamp?

        public var firstStartDate: String? { firstStart?.iso8601 }
        public var lastStartDate: String? { lastStart?.iso8601 }

        init(type: String, kind: String, count: Int) {
            self.type = type
            self.kind = kind
            self.count = count
        }

        enum CodingKeys: String, CodingKey { case type, kind, count, firstStartDate, lastStartDate }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try container.decode(String.self, forKey: .type)
            kind = try container.decode(String.self, forKey: .kind)
            count = try container.decode(Int.self, forKey: .count)
            firstStart = try container.decodeIfPresent(String.self, forKey: .firstStartDate).flatMap(ExportTimestamp.parse)
            lastStart = try container.decodeIfPresent(String.self, forKey: .lastStartDate).flatMap(ExportTimestamp.parse)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(type, forKey: .type)
            try container.encode(kind, forKey: .kind)
            try container.encode(count, forKey: .count)
            try container.encodeIfPresent(firstStartDate, forKey: .firstStartDate)
            try container.encodeIfPresent(lastStartDate, forKey: .lastStartDate)
        }
    }

    public struct SourceEntry: Sendable, Codable {
        public var name: String
        public var count: Int
    }

    public struct DeviceEntry: Sendable, Codable {
        public var name: String?
        public var manufacturer: String?
        public var model: String?
        public var hardwareVersion: String?
        public var description: String?
        public var count: Int
    }

    public var types: [TypeEntry] = []
    public var sources: [SourceEntry] = []
    public var devices: [DeviceEntry] = []
    public var objectCount = 0
    /// `fileReference` paths of workout routes, for checking them against the side files.
    public var routeFileReferences: [String] = []
    /// `resourceFilePath`s of clinical records.
    public var clinicalResourcePaths: [String] = []

    private var typeIndex: [String: Int] = [:]
    /// The last type and device met, and their entries: Apple writes runs of one type from one
    /// device, so most objects skip the lookups (and the device key's making).
    private var lastType: (identifier: String, index: Int)? = nil
    private var lastDevice: (device: Device, index: Int)? = nil
    private var sourceIndex: [String: Int] = [:]
    private var deviceIndex: [String: Int] = [:]

    enum CodingKeys: String, CodingKey { case types, sources, devices, objectCount }

    public init() {}

    public mutating func add(_ object: HealthObject) {
        objectCount += 1
        let type = object.objectType
        let index: Int?
        if let last = lastType, last.identifier == type.identifier {
            index = last.index
        } else if let existing = typeIndex[type.identifier] {
            index = existing
        } else if types.count >= 10_000 {
            // At most 10,000 types are listed, as sources and devices: an export making a new
            // one with every element (unknown element names) would hold them all.
            index = nil
        } else {
            index = types.count
            typeIndex[type.identifier] = types.count
            types.append(TypeEntry(type: type.identifier, kind: object.kindName, count: 0))
        }
        if let index {
            lastType = (type.identifier, index)
            types[index].count += 1
            var start = object.startDate
            if start == nil, case .activitySummary(let summary) = object, let day = summary.dateComponents {
                // A calendar day has no zone; report it at midnight UTC, as the day itself.
                start = ExportTimestamp(
                    secondsSince1970: Int64(CalendarDate.daysFromCivil(year: day.year, month: day.month, day: day.day)) * 86_400,
                    utcOffsetSeconds: 0)
            }
            if let start {
                if types[index].firstStart.map({ start.secondsSince1970 < $0.secondsSince1970 }) ?? true {
                    types[index].firstStart = start
                }
                if types[index].lastStart.map({ start.secondsSince1970 > $0.secondsSince1970 }) ?? true {
                    types[index].lastStart = start
                }
            }
        }
        if let sample = object.sampleAttributes {
            countSource(sample.sourceRevision.source.name)
            if let device = sample.device { countDevice(device) }
        } else if case .clinicalRecord(let record) = object, let name = record.sourceName {
            countSource(name)
        }
        switch object {
        case .workout(let workout):
            for route in workout.routes {
                if let path = route.fileReference, routeFileReferences.count < 100_000 { routeFileReferences.append(path) }
            }
        case .clinicalRecord(let record):
            if let path = record.resourceFilePath, clinicalResourcePaths.count < 100_000 { clinicalResourcePaths.append(path) }
        default:
            break
        }
    }

    private mutating func countSource(_ name: String) {
        if let i = sourceIndex[name] {
            sources[i].count += 1
        } else if sources.count < 10_000 {
            sourceIndex[name] = sources.count
            sources.append(SourceEntry(name: name, count: 1))
        }
    }

    private mutating func countDevice(_ device: Device) {
        if let last = lastDevice, last.device == device {
            devices[last.index].count += 1
            return
        }
        let key = device.identityKey
        if let i = deviceIndex[key] {
            devices[i].count += 1
            lastDevice = (device, i)
        } else if devices.count < 10_000 {
            lastDevice = (device, devices.count)
            deviceIndex[key] = devices.count
            devices.append(
                DeviceEntry(
                    name: device.name, manufacturer: device.manufacturer, model: device.model,
                    hardwareVersion: device.hardwareVersion, description: device.unparsedDescription, count: 1))
        }
    }

    /// Types by identifier, sources and devices by count (most first): a stable order for output.
    public mutating func sort() {
        types.sort { $0.type < $1.type }
        sources.sort { ($1.count, $0.name) < ($0.count, $1.name) }
        devices.sort { ($1.count, $0.name ?? "") < ($0.count, $1.name ?? "") }
        typeIndex = [:]
        sourceIndex = [:]
        deviceIndex = [:]
        lastType = nil
        lastDevice = nil
    }
}
