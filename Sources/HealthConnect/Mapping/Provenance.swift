import HealthModel

/// The apps and devices every record refers to (`application_info_table`,
/// `device_info_table`), read once and held (bounded by `HealthConnectLimits`), as the
/// sources and devices of the model.
struct Provenance {
    /// By `row_id`: the app as a source (its name, else its package name; the package name as
    /// the bundle identifier).
    var sources: [Int64: Source] = [:]
    var devices: [Int64: Device] = [:]
    /// Package names by `row_id`, for the priority list.
    var packages: [Int64: String] = [:]

    /// A source for records whose app is missing from the table (it should not happen: the
    /// database deletes an app's records with it). It names no package, so the priority list
    /// does not rank its records (`HealthConnectRanking`): they merge by the default tiers.
    static let unknownSource = Source(name: "Health Connect")

    init(_ database: ReadOnlyDatabase, limits: HealthConnectLimits) throws(HealthConnectError) {
        let table = "application_info_table"
        let apps = try database.prepare("SELECT row_id, package_name, app_name FROM \(table)", table: table)
        while try apps.step() {
            let row = apps.int64(0)
            guard sources.count < limits.applications else {
                throw HealthConnectError(.limitExceeded, "more than \(limits.applications) apps", table: table)
            }
            guard let package = apps.text(1, limit: 1024), !package.isEmpty else {
                throw HealthConnectError(.invalidValue, "no package name, or one longer than 1,024 bytes", table: table, row: row, column: "package_name")
            }
            let name = apps.text(2, limit: 1024).flatMap { $0.isEmpty ? nil : $0 } ?? package
            sources[row] = Source(name: name, bundleIdentifier: package)
            packages[row] = package
        }
        let deviceTable = "device_info_table"
        let rows = try database.prepare("SELECT row_id, manufacturer, model, device_type FROM \(deviceTable)", table: deviceTable)
        while try rows.step() {
            guard devices.count < limits.devices else {
                throw HealthConnectError(.limitExceeded, "more than \(limits.devices) devices", table: deviceTable)
            }
            let manufacturer = rows.text(1, limit: 1024)
            let model = rows.text(2, limit: 1024)
            let kind = rows.optionalInt64(3).flatMap { Self.deviceName(ofType: $0) }
            // Android's model ("Pixel 8", "SM-R930") names the product, as HealthKit's hardware
            // version does ("Watch6,2"); HealthKit's model is the kind of device ("Watch"). So
            // de-identification, which keeps the kind and removes the hardware, treats both
            // phones' devices alike.
            devices[rows.int64(0)] = Device(name: kind, manufacturer: manufacturer, model: kind, hardwareVersion: model)
        }
    }

    /// A device type (`Device.DEVICE_TYPE_…` in AOSP) in words, as HealthKit's device name.
    static func deviceName(ofType code: Int64) -> String? {
        switch code {
        case 1: return "Watch"
        case 2: return "Phone"
        case 3: return "Scale"
        case 4: return "Ring"
        case 5: return "Head-mounted device"
        case 6: return "Fitness band"
        case 7: return "Chest strap"
        case 8: return "Smart display"
        default: return nil
        }
    }

    /// The priority list (`health_data_category_priority_table`): each category's
    /// `app_id_priority_order`, app `row_id`s separated by commas, highest first, as package
    /// names. Ids of apps the table does not have are dropped.
    func priority(_ database: ReadOnlyDatabase, limits: HealthConnectLimits) throws(HealthConnectError) -> HealthConnectPriority {
        let table = "health_data_category_priority_table"
        let rows = try database.prepare("SELECT row_id, health_data_category, app_id_priority_order FROM \(table)", table: table)
        var apps: [HealthConnectPriority.Category: [String]] = [:]
        while try rows.step() {
            let row = rows.int64(0)
            guard let category = HealthConnectPriority.Category(rawValue: Int(clamping: rows.int64(1))) else { continue }
            guard rows.textLength(2) <= limits.priorityListBytes else {
                throw HealthConnectError(
                    .limitExceeded, "a priority list longer than \(limits.priorityListBytes) bytes", table: table, row: row,
                    column: "app_id_priority_order")
            }
            let text = rows.text(2, limit: limits.priorityListBytes) ?? ""
            var list: [String] = []
            var listed: Set<String> = []
            for item in text.split(separator: ",") {
                guard let id = Int64(item.trimmed(of: " ")) else {
                    throw HealthConnectError(.invalidValue, "an app id that is not a number", table: table, row: row, column: "app_id_priority_order")
                }
                if let package = packages[id], listed.insert(package).inserted { list.append(package) }
            }
            apps[category] = list
        }
        return HealthConnectPriority(apps: apps)
    }
}

extension Substring {
    fileprivate func trimmed(of character: Character) -> Substring {
        var text = self
        while text.first == character { text = text.dropFirst() }
        while text.last == character { text = text.dropLast() }
        return text
    }
}
