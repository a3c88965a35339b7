import HealthModel

/// What an export holds, tallied object by object in constant memory per distinct type,
/// source and device: what `healthport info` prints.
public struct ExportInventory: Sendable, Codable {
    public struct TypeEntry: Sendable, Codable {
        public var type: String
        public var kind: String
        public var count: Int
        public var firstStartDate: String?
        public var lastStartDate: String?
        /// First and last as instants, for comparisons.
        var firstSeconds: Int64?
        var lastSeconds: Int64?

        enum CodingKeys: String, CodingKey { case type, kind, count, firstStartDate, lastStartDate }
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
    private var sourceIndex: [String: Int] = [:]
    private var deviceIndex: [String: Int] = [:]

    enum CodingKeys: String, CodingKey { case types, sources, devices, objectCount }

    public init() {}

    public mutating func add(_ object: HealthObject) {
        objectCount += 1
        let type = object.objectType
        let index: Int
        if let existing = typeIndex[type.identifier] {
            index = existing
        } else {
            index = types.count
            typeIndex[type.identifier] = index
            types.append(TypeEntry(type: type.identifier, kind: object.kindName, count: 0))
        }
        types[index].count += 1
        var start = object.startDate
        if start == nil, case .activitySummary(let summary) = object, let day = summary.dateComponents {
            // A calendar day has no zone; report it at midnight UTC, as the day itself.
            start = ExportTimestamp(
                secondsSince1970: Int64(CalendarDate.daysFromCivil(year: day.year, month: day.month, day: day.day)) * 86_400,
                utcOffsetSeconds: 0)
        }
        if let start {
            if types[index].firstSeconds.map({ start.secondsSince1970 < $0 }) ?? true {
                types[index].firstSeconds = start.secondsSince1970
                types[index].firstStartDate = start.iso8601
            }
            if types[index].lastSeconds.map({ start.secondsSince1970 > $0 }) ?? true {
                types[index].lastSeconds = start.secondsSince1970
                types[index].lastStartDate = start.iso8601
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
        let key = device.identityKey
        if let i = deviceIndex[key] {
            devices[i].count += 1
        } else if devices.count < 10_000 {
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
    }
}
