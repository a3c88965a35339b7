import HealthModel

/// Applies every de-identification rule to objects and to the export's header: the one place
/// where they are applied, called by the query's gate after the policy, so that every writer,
/// every format and every command that reads through a gate gets de-identified objects without
/// knowing it.
///
/// The rules, object by object:
/// - every date moved by the person's `DateShift` (creation, start and end dates, workout
///   events, activities and statistics, heartbeat times, activity summaries' days, ECG and
///   vision prescription dates);
/// - every uuid re-derived with the key (`UUIDRederivation`), the HealthKit uuids of workout
///   activities too;
/// - source names, device names and unparsed device descriptions replaced by keyed pseudonyms
///   (`Pseudonyms`), except the Health app's own name, `Health`, which is everybody's and which
///   the summaries rank first; device serials (`localIdentifier`), UDI device identifiers and
///   the device's creation date removed; model and manufacturer kept ("Watch", "Apple Inc.");
///   hardware, firmware and software versions, source versions, product types and operating
///   system versions removed: each dates its sample (an iOS update's first days, a model's
///   release), and with the dates' shift known to the week, every original date comes back;
/// - metadata cut to `MetadataAllowList`; attributes and elements healthport does not model
///   (`extensions`) removed;
/// - workout routes removed, with their points and their GPX file references: a route relative
///   to its start still has the shape of the streets it ran along, which a map matches;
/// - clinical records removed (their FHIR resources are free text with names, record numbers
///   and dates), and so are elements healthport does not model (`UnknownObject`): neither can
///   be vetted;
/// - the ECG file's name replaced by a pseudonym (it holds the recording's date).
///
/// The header: the export date shifted; the export format's version and the zone's name
/// removed (the version dates the export); the characteristics only when a policy grants them,
/// and then cut to the year of birth or "90 or older" (`SafeHarborCharacteristics`); the
/// person named by a keyed pseudonym of the person's key (`personID`, `person-…`), which FHIR's
/// Patient and Open mHealth's `user_id` carry.
///
/// Every date is written in UTC (`DateShift`): the offsets an export prints mark the Sundays
/// the clocks changed, which would date the shift.
///
/// Not thread-safe (it keeps the last source and device it met): one per stream, as a gate is.
public final class Deidentifier {
    public let deidentification: Deidentification
    private let shift: DateShift
    private let uuids: UUIDRederivation
    public let pseudonyms: Pseudonyms
    /// The last devices met (at most eight) and their de-identified forms, compared by storage:
    /// the reader hands out one value per distinct device, and records alternate between a few
    /// (a watch's heart rates, a phone's steps), so a scan of these finds nearly every device
    /// without hashing its fields. The originals are kept, so their storage, whose identity the
    /// comparison uses, cannot be freed and reused by another device.
    private var recentDevices: [Device] = []
    private var recentDeidentifiedDevices: [Device] = []
    private var devices: [Device: Device] = [:]

    public init(_ deidentification: Deidentification) {
        self.deidentification = deidentification
        shift = deidentification.shift
        uuids = UUIDRederivation(key: deidentification.key)
        pseudonyms = Pseudonyms(key: deidentification.key)
    }

    /// The header as a de-identified output shows it.
    ///
    /// - Parameter grantsCharacteristics: whether a policy granted the characteristics that are
    ///   left (without a policy, a de-identified output has none).
    public func header(_ header: ExportHeader, grantsCharacteristics: Bool) -> ExportHeader {
        var result = header
        result.exportDate = shift.shifted(header.exportDate)
        result.exportVersion = nil
        result.timeZone = nil
        // The pseudonym of the person's key (the empty string for one export converted alone,
        // whose key is that person's): the same person under the same key every time, unrelated
        // under another key, and in a lake whose person keys are file names, the name of the
        // person's folder (`person=person-…`). Never derived from a characteristic.
        result.personID = pseudonyms.pseudonym(deidentification.person, as: .person)
        // A Health Connect export's priority list names apps by their package names, as the
        // samples' pseudonymized identifiers now are (`app-…`): the same pseudonyms, so the
        // de-identified output totals as the export does (`HealthConnectRanking`).
        if let priority = header.healthConnectPriority {
            result.healthConnectPriority = HealthConnectPriority(
                apps: priority.apps.mapValues { apps in apps.map { pseudonyms.pseudonym($0, as: .app) } })
        }
        if let characteristics = header.characteristics {
            result.characteristics =
                grantsCharacteristics
                ? SafeHarborCharacteristics.cut(characteristics, shift: shift, asOf: header.exportDate) : Characteristics()
        }
        return result
    }

    /// The object as a de-identified output shows it; `nil` when it is removed whole.
    ///
    /// Borrows the object and copies only the payload it changes: a `HealthObject` is as large
    /// as its largest kind (a vision prescription's two lenses, about a kilobyte), and a copy of
    /// the whole value per record showed in a profile.
    public func deidentify(_ object: borrowing HealthObject) -> HealthObject? {
        switch object {
        case .quantitySample(var q):
            deidentify(&q)
            return .quantitySample(q)
        case .categorySample(var c):
            deidentify(&c.sample)
            return .categorySample(c)
        case .correlation(var c):
            deidentify(&c.sample)
            c.objects = c.objects.map { member in
                switch member {
                case .quantity(var q):
                    deidentify(&q)
                    return .quantity(q)
                case .category(var c):
                    deidentify(&c.sample)
                    return .category(c)
                }
            }
            return .correlation(c)
        case .workout(var w):
            deidentify(&w)
            return .workout(w)
        case .activitySummary(var a):
            a.uuid = uuids.rederive(a.uuid)
            a.dateComponents = a.dateComponents.map(shift.shifted)
            a.extensions = .none
            return .activitySummary(a)
        case .audiogram(var a):
            deidentify(&a.sample)
            a.sensitivityPoints = a.sensitivityPoints.map { point in
                var point = point
                point.extensions = .none
                return point
            }
            return .audiogram(a)
        case .visionPrescription(var v):
            v.uuid = uuids.rederive(v.uuid)
            v.dateIssued = shift.shifted(v.dateIssued)
            v.expirationDate = shift.shifted(v.expirationDate)
            v.attachments = []
            // Free text the person or the practice typed (a practitioner's name and address
            // has been seen): removed, like every free-text field.
            v.brand = nil
            v.metadata = MetadataAllowList.filter(v.metadata)
            v.extensions = .none
            v.rightEye?.extensions = .none
            v.leftEye?.extensions = .none
            return .visionPrescription(v)
        case .electrocardiogram(var e):
            e.uuid = uuids.rederive(e.uuid)
            e.file = pseudonyms.pseudonym(e.file, as: .file)
            e.recordedDate = shift.shifted(e.recordedDate)
            return .electrocardiogram(e)
        case .clinicalRecord, .unknown:
            return nil
        }
    }

    private func deidentify(_ q: inout QuantitySample) {
        deidentify(&q.sample)
        if !q.instantaneousBeatsPerMinute.isEmpty {
            for index in q.instantaneousBeatsPerMinute.indices {
                q.instantaneousBeatsPerMinute[index].date = shift.shifted(q.instantaneousBeatsPerMinute[index].date)
            }
        }
    }

    private func deidentify(_ w: inout Workout) {
        deidentify(&w.sample)
        w.workoutEvents = w.workoutEvents.map(deidentify)
        w.statistics = w.statistics.map(deidentify)
        w.workoutActivities = w.workoutActivities.map { activity in
            var activity = activity
            activity.uuid = uuids.rederive(text: activity.uuid)
            activity.startDate = shift.shifted(activity.startDate)
            activity.endDate = shift.shifted(activity.endDate)
            activity.metadata = MetadataAllowList.filter(activity.metadata)
            activity.workoutEvents = activity.workoutEvents.map(deidentify)
            activity.statistics = activity.statistics.map(deidentify)
            activity.extensions = .none
            return activity
        }
        w.routes = []
    }

    private func deidentify(_ event: WorkoutEvent) -> WorkoutEvent {
        var event = event
        event.date = shift.shifted(event.date)
        event.metadata = MetadataAllowList.filter(event.metadata)
        event.extensions = .none
        return event
    }

    private func deidentify(_ statistics: WorkoutStatistics) -> WorkoutStatistics {
        var statistics = statistics
        statistics.startDate = shift.shifted(statistics.startDate)
        statistics.endDate = shift.shifted(statistics.endDate)
        statistics.extensions = .none
        return statistics
    }

    /// What every sample shares; on the hot path (every record), so a record whose metadata is
    /// all kept and whose device was met last costs no allocation beyond its new fields.
    @inline(__always)
    private func deidentify(_ sample: inout SampleAttributes) {
        sample.uuid = uuids.rederive(sample.uuid)
        let name = sample.sourceRevision.source.name
        if !Pseudonyms.sameBytes(name, "Health") { sample.sourceRevision.source.name = pseudonyms.pseudonym(name, as: .source) }
        // An app's identifier (a Health Connect record's package name) names the app as its
        // name does: a pseudonym, which the header's priority list shares (`header(_:)`).
        if let app = sample.sourceRevision.source.bundleIdentifier {
            sample.sourceRevision.source.bundleIdentifier = pseudonyms.pseudonym(app, as: .app)
        }
        sample.sourceRevision.version = nil
        sample.sourceRevision.productType = nil
        sample.sourceRevision.operatingSystemVersion = nil
        if let device = sample.device { sample.device = deidentify(device) }
        sample.creationDate = shift.shifted(sample.creationDate)
        sample.startDate = shift.shifted(sample.startDate)
        sample.endDate = shift.shifted(sample.endDate)
        if !sample.metadata.isEmpty { sample.metadata = deidentify(sample.metadata) }
        if !sample.extensions.isEmpty { sample.extensions = .none }
    }

    /// The metadata entries kept (`MetadataAllowList`), and a Health Connect record's last
    /// modification shifted like every date: it decides which of an app's overlapping records
    /// counts (`HealthConnectRanking`), so without it de-identified totals would differ from
    /// the export's. A shifted time says no more than the sample's shifted dates beside it.
    @inline(__always)
    private func deidentify(_ metadata: Metadata) -> Metadata {
        var kept = MetadataAllowList.filter(metadata)
        for entry in metadata.entries where entry.key == MetadataAllowList.healthConnectLastModifiedKey {
            if case .date(let modified) = entry.value { kept.entries.append(MetadataEntry(key: entry.key, value: .date(shift.shifted(modified)))) }
        }
        return kept
    }

    private func deidentify(_ device: Device) -> Device {
        let token = device.storageToken
        for index in recentDevices.indices where recentDevices[index].storageToken == token { return recentDeidentifiedDevices[index] }
        let made: Device
        if let known = devices[device] {
            made = known
        } else {
            var result = Device(manufacturer: device.manufacturer, model: device.model)
            result.name = device.name.map { pseudonyms.pseudonym($0, as: .device) }
            result.unparsedDescription = device.unparsedDescription.map { pseudonyms.pseudonym($0, as: .device) }
            made = result
            if devices.count < 10_000 { devices[device] = made }
        }
        if recentDevices.count == 8 {
            recentDevices.removeFirst()
            recentDeidentifiedDevices.removeFirst()
        }
        recentDevices.append(device)
        recentDeidentifiedDevices.append(made)
        return made
    }
}
