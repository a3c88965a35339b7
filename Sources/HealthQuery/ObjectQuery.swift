import Crypto
import Foundation
import HealthDeidentify
import HealthModel

/// What a read asks for: HealthKit's query descriptor over an export. Every part is optional;
/// the parts combine with AND, and the types with OR (a descriptor's predicate array).
public struct ObjectQuery: Sendable {
    /// Type identifiers to keep; `nil` keeps everything.
    public var types: Set<String>?
    /// A parsed `--where` predicate.
    public var predicate: QueryPredicate?
    /// `predicateForSamples(withStart:end:options:)`.
    public var dateWindow: DateWindow?
    /// Source names to keep, compared loosely (`SourceName.normalized`).
    public var sources: [String] = []
    /// Device names to keep, compared loosely.
    public var devices: [String] = []
    /// Object uuids to keep.
    public var uuids: Set<ObjectUUID> = []
    /// Express quantities in this unit on output.
    public var outputUnit: HealthUnit?
    /// What the consumer may read; `nil` is owner mode (everything).
    public var policy: AuthorizationPolicy?
    /// De-identify what the policy lets through (`--deidentify`): applied by the gate, after the
    /// policy and the output unit, so every writer gets de-identified objects. The query's
    /// filters (dates, sources, devices, uuids, predicates) read the original objects.
    public var deidentification: Deidentification?

    public init(types: Set<String>? = nil, predicate: QueryPredicate? = nil, dateWindow: DateWindow? = nil) {
        self.types = types
        self.predicate = predicate
        self.dateWindow = dateWindow
    }

    public static let all = ObjectQuery()

    /// Identifies which objects the query selects (not how they are written): anchors are only
    /// valid for the query they were made with.
    public var identityHash: [UInt8] {
        var text = "healthport-query-v1\n"
        text += "types:" + (types.map { $0.sorted().joined(separator: ",") } ?? "*") + "\n"
        text += "where:" + (predicate?.description ?? "") + "\n"
        if let window = dateWindow {
            text += "window:\(window.start.map { String($0) } ?? "-"):\(window.end.map { String($0) } ?? "-"):\(window.strictStartDate):\(window.strictEndDate)\n"
            if window.hasLocalBounds {
                text += "local:\(window.localStart.map { String($0) } ?? "-"):\(window.localEnd.map { String($0) } ?? "-")\n"
            }
        }
        text += "sources:" + sources.map(SourceName.normalized).sorted().joined(separator: ",") + "\n"
        text += "devices:" + devices.map(SourceName.normalized).sorted().joined(separator: ",") + "\n"
        text += "uuids:" + uuids.map(\.uuidString).sorted().joined(separator: ",") + "\n"
        if let policy {
            text += "policy:\(policy.consumer.name)|\(policy.ownSources.sorted())|"
            text += policy.read.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.rawValue)" }.joined(separator: ",")
            text += "|" + policy.readSince.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            text += "|" + policy.perObject.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.granted.sorted())-\($0.value.revokedOwn.sorted())" }.joined(separator: ",")
        }
        // A de-identified consumer's anchor holds re-derived uuids: it is good only with the
        // same key and person (the key by its identifier, never the key).
        if let deidentification {
            text += "deidentify:\(deidentification.key.identifier)|\(deidentification.person)\n"
        }
        return Array(SHA256.hash(data: Data(text.utf8)))
    }
}

/// The date rule of `predicateForSamples(withStart:end:options:)`, on absolute instants, with
/// the window closed at `start` and open at `end` (docs/reference/healthkit.md §4.2):
///
/// | options | matches |
/// | --- | --- |
/// | none | `endDate ≥ start` and `startDate < end` (the sample overlaps the window) |
/// | strictStartDate | `start ≤ startDate < end` |
/// | strictEndDate | `start ≤ endDate < end` |
/// | both | `start ≤ startDate ≤ endDate < end` |
///
/// A nil bound drops its conditions. Activity summaries have no instants: their day is taken
/// from midnight to midnight in `timeZone`.
public struct DateWindow: Sendable, Hashable {
    public var start: Double?
    public var end: Double?
    public var strictStartDate: Bool
    public var strictEndDate: Bool
    public var timeZone: TimeZone
    /// A bound written without an offset and no zone given (`--start 2024-12-01`), as wall-clock
    /// seconds (the date and time read as if in UTC): it is the person's midnight, not the
    /// machine's. A sample is compared in its own time: the zone its `HKTimeZone` names, else the
    /// offset its date was written with (the export's, `QueryExecutor.localOffset(of:)`), the zones `stats` cuts days in; a run
    /// that decides one zone for everything (statistics, summaries) resolves these bounds in it
    /// (`resolvingLocalBounds(in:)`) instead. When set, `start`/`end` are not.
    public var localStart: Double?
    public var localEnd: Double?

    public init(start: Double?, end: Double?, strictStartDate: Bool = false, strictEndDate: Bool = false, timeZone: TimeZone = .current) {
        self.start = start
        self.end = end
        self.strictStartDate = strictStartDate
        self.strictEndDate = strictEndDate
        self.timeZone = timeZone
    }

    /// A window from the dates a person typed (`--start`, `--end`): with `zone`, a date
    /// without an offset is read in it; without one, in each sample's own time (`localStart`,
    /// `localEnd`), where `stats` cuts its days, never in the machine's zone.
    ///
    /// - Returns: `nil` when a date is not one (the face says which).
    public static func typed(
        start: String?, end: String?, strictStartDate: Bool, strictEndDate: Bool, zone: TimeZone?
    ) -> (window: DateWindow?, invalid: String?) {
        let utc = TimeZone(secondsFromGMT: 0)!
        var window = DateWindow(start: nil, end: nil, strictStartDate: strictStartDate, strictEndDate: strictEndDate, timeZone: zone ?? utc)
        for (text, isStart) in [(start, true), (end, false)] {
            guard let text else { continue }
            guard let inUTC = PredicateValue.parseDate(text, timeZone: utc) else { return (nil, text) }
            if let zone {
                guard let value = PredicateValue.parseDate(text, timeZone: zone) else { return (nil, text) }
                if isStart { window.start = value } else { window.end = value }
                continue
            }
            // Without an offset, the same text reads differently an hour east.
            let floating = PredicateValue.parseDate(text, timeZone: TimeZone(secondsFromGMT: 3600)!) != inUTC
            switch (floating, isStart) {
            case (true, true): window.localStart = inUTC
            case (true, false): window.localEnd = inUTC
            case (false, true): window.start = inUTC
            case (false, false): window.end = inUTC
            }
        }
        return (window, nil)
    }

    /// Whether a bound is read in each sample's own time (`localStart`, `localEnd`).
    public var hasLocalBounds: Bool { localStart != nil || localEnd != nil }

    /// The window with its local bounds read in `zone`: what a run that cuts days in one zone
    /// applies.
    public func resolvingLocalBounds(in zone: TimeZone) -> DateWindow {
        var window = self
        func instant(_ local: Double) -> Double {
            // The offset at the local time itself: twice, as around a change the first guess
            // can fall on the other side of it.
            let first = local - Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: local)))
            return local - Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: first)))
        }
        if let local = localStart { window.start = instant(local) }
        if let local = localEnd { window.end = instant(local) }
        window.localStart = nil
        window.localEnd = nil
        window.timeZone = zone
        return window
    }

    /// Whether a sample spanning `[s, e]` matches.
    public func admits(start s: Double, end e: Double) -> Bool {
        if let start {
            if !strictStartDate || strictEndDate { if e < start { return false } }
            if strictStartDate && s < start { return false }
        }
        if let end {
            if !strictEndDate || strictStartDate { if s >= end { return false } }
            if strictEndDate && e >= end { return false }
        }
        return true
    }

    public func admits(_ object: HealthObject) -> Bool {
        admits(object, localOffset: { _ in 0 })
    }

    /// Whether `object` matches, local bounds compared with its time plus `localOffset` of it
    /// (the offset of the sample's own zone at its start).
    func admits(_ object: HealthObject, localOffset: (HealthObject) -> Int) -> Bool {
        if let s = object.startDate, let e = object.endDate {
            var start = Double(s.secondsSince1970)
            var end = Double(e.secondsSince1970)
            if hasLocalBounds {
                let offset = Double(localOffset(object))
                start += offset
                end += offset
                var local = self
                local.start = localStart
                local.end = localEnd
                return local.admits(start: start, end: end)
            }
            return admits(start: start, end: end)
        }
        if case .activitySummary(let summary) = object, let day = summary.dateComponents {
            let local = Double(CalendarDate.daysFromCivil(year: day.year, month: day.month, day: day.day)) * 86_400
            if hasLocalBounds {
                var window = self
                window.start = localStart
                window.end = localEnd
                return window.admits(start: local, end: local + 86_400 - 1)
            }
            let midnight = local - Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: local)))
            return admits(start: midnight, end: midnight + 86_400 - 1)
        }
        return false
    }
}

/// Loose matching for names people type: `Simon's iPhone` finds `Simon’s iPhone`.
public enum SourceName {
    /// NFC, typographic apostrophes as `'`, no-break spaces as spaces, case folded.
    public static func normalized(_ name: String) -> String {
        var text = name.precomposedStringWithCanonicalMapping
        text = text.replacingOccurrences(of: "\u{2019}", with: "'").replacingOccurrences(of: "\u{2018}", with: "'")
        text = text.replacingOccurrences(of: "\u{00A0}", with: " ").replacingOccurrences(of: "\u{202F}", with: " ")
        return text.lowercased()
    }
}

/// What a query means, applied to objects: `admits` decides, `transform` applies the output unit
/// and the policy's redactions. Both are internal to this module: everywhere else objects pass
/// through a `QueryGate`, the one component that applies them, so no caller can skip the policy.
public struct QueryExecutor: Sendable {
    public let query: ObjectQuery
    private let normalizedSources: Set<String>
    private let normalizedDevices: Set<String>
    /// Whether anything beyond the type filter is asked (most conversions ask nothing).
    private let hasFilters: Bool
    /// Whether `transform` changes anything.
    let transformsObjects: Bool
    private let enforcer: PolicyEnforcer?

    public init(_ query: ObjectQuery) {
        self.query = query
        self.normalizedSources = Set(query.sources.map(SourceName.normalized))
        self.normalizedDevices = Set(query.devices.map(SourceName.normalized))
        self.enforcer = query.policy.map(PolicyEnforcer.init)
        self.hasFilters = query.dateWindow != nil || !query.sources.isEmpty || !query.devices.isEmpty
            || !query.uuids.isEmpty || query.predicate != nil || query.policy != nil
        self.transformsObjects = query.outputUnit != nil || query.policy != nil
    }

    /// The types the reader needs to build: the selected ones, narrowed to what the policy can
    /// let through. `nil` means all.
    public var typesToRead: Set<String>? {
        guard let enforcer else { return query.types }
        return query.types.map { $0.intersection(enforcer.readableTypes) } ?? enforcer.readableTypes
    }

    /// The export header as the consumer may see it, and as the query selects it: the
    /// characteristics are HealthKit types, so a type filter that does not name one leaves it
    /// out (`--type StepCount` once kept the date of birth, sex and blood type in every
    /// format), and the policy leaves out those it does not grant. Writers leave out an empty
    /// set of characteristics, but Apple's format, whose `Me` is kept (empty) when the export had
    /// one.
    ///
    /// The person is named (`personID`) from the characteristics the policy lets the consumer
    /// see, whatever the type filter shows (`PersonIdentity`): the same Patient for a conversion
    /// of everything, of one type, and for the days and nights of the same export.
    /// De-identification then names the person by a pseudonym instead.
    public func header(_ header: ExportHeader) -> ExportHeader {
        var header = header
        if header.personID == nil {
            header.personID = PersonIdentity.derivedID(
                header.characteristics?.keeping { enforcer?.mayReadCharacteristic($0) ?? true })
        }
        // Left out, a characteristic looks unset: an export that had `Me` still has one (Apple's
        // DTD requires it), with nothing in it.
        header.characteristics = header.characteristics?.keeping(admitsCharacteristic)
        // A Health Connect export's priority list names the apps the person uses for each kind
        // of data: only the categories of types the consumer reads are kept (the list decides
        // those types' totals; an app named for data the policy hides would say too much).
        if let priority = header.healthConnectPriority, let readable = typesToRead {
            let apps = priority.apps.filter { category, _ in readable.contains { HealthConnectPriority.category(ofType: $0) == category } }
            header.healthConnectPriority = apps.isEmpty ? nil : HealthConnectPriority(apps: apps)
        }
        return header
    }

    /// Whether the consumer sees a characteristic (`HKCharacteristicTypeIdentifierDateOfBirth`,
    /// …): named by the type filter, if there is one, and granted by the policy, if there is
    /// one. What decides the header's characteristics, and what else carries them (the date
    /// of birth an ECG file's header repeats).
    public func admitsCharacteristic(_ identifier: String) -> Bool {
        if let types = query.types, !types.contains(identifier) { return false }
        return enforcer?.mayReadCharacteristic(identifier) ?? true
    }

    /// Checks the query against the queried types before any data is read: a key path that
    /// none of them has, or an output unit that does not fit them, is `errorInvalidArgument`.
    public func validate() throws {
        try enforcer?.validate(requestedTypes: query.types)
        let kinds = query.types.map { types in Set(types.map(Self.kind(of:))) }
        if let predicate = query.predicate, let kinds {
            for (path, text, column) in predicate.keyPaths where !kinds.contains(where: { path.applies(to: $0) }) {
                throw QueryPredicateError(
                    "key path '\(text)' does not apply to the selected types", column: column, source: predicate.description)
            }
        }
        if let predicate = query.predicate, let types = query.types {
            try Self.checkQuantityUnits(predicate, types: types)
        }
        if let unit = query.outputUnit {
            guard let types = query.types else {
                throw QueryError(
                    .errorInvalidArgument, "\(argument: .unit) needs \(argument: .types): name the quantity types whose unit to change",
                    argument: .unit)
            }
            for type in types {
                guard let entry = TypeCatalogue.entry(for: type), entry.kind == .quantity else {
                    throw QueryError(.errorInvalidArgument, "\(argument: .unit) applies to quantity types; \(type) is not one", argument: .unit)
                }
                if let canonical = entry.canonicalUnit, let canonicalUnit = try? HealthUnit.cached(canonical),
                    !canonicalUnit.isCompatible(with: unit)
                {
                    throw QueryError(
                        .errorInvalidArgument, "unit '\(unit.text)' is not compatible with \(type), measured in '\(canonical)'",
                        argument: .unit)
                }
            }
        }
    }

    /// A quantity literal compared with `quantity` must convert to the unit of the selected
    /// quantity types (HealthKit raises for incompatible quantities): `quantity > "5 km"` on heart
    /// rates is an error, not a predicate that is silently never true.
    static func checkQuantityUnits(_ predicate: QueryPredicate, types: Set<String>) throws {
        let canonicalUnits = types.compactMap { type -> (String, HealthUnit)? in
            guard let entry = TypeCatalogue.entry(for: type), entry.kind == .quantity, let unit = entry.canonicalUnit,
                let parsed = try? HealthUnit.cached(unit)
            else { return nil }
            return (type, parsed)
        }
        guard !canonicalUnits.isEmpty else { return }
        func literals(_ expression: PredicateExpression) -> [(HealthUnit, Int)] {
            switch expression {
            case .literal(.quantity(_, let unit), let column): return [(unit, column)]
            case .aggregate(let items, _): return items.flatMap(literals)
            default: return []
            }
        }
        func check(_ p: QueryPredicate) throws {
            switch p {
            case .constant: return
            case .and(let parts), .or(let parts): try parts.forEach(check)
            case .not(let inner): try check(inner)
            case .comparison(let c):
                guard case .keyPath(.quantity, _, _) = c.left else { return }
                for (unit, column) in literals(c.right) where !canonicalUnits.contains(where: { $0.1.isCompatible(with: unit) }) {
                    let names = canonicalUnits.map { "\($0.0) (\($0.1.text))" }.joined(separator: ", ")
                    throw QueryPredicateError(
                        "'\(unit.text)' is not compatible with the unit of \(names)", column: column, source: predicate.description)
                }
            }
        }
        try check(predicate)
    }

    static func kind(of identifier: String) -> ObjectType.Kind {
        if let entry = TypeCatalogue.entry(for: identifier) { return entry.kind }
        return ObjectType(recordType: identifier).kind
    }

    /// The offset of a sample's own time at its start: its `HKTimeZone`'s, else the offset its
    /// date was written with, which is the export's (quirk Q3: Apple writes every date of an
    /// export with one offset). Read from the object itself, so a chunk of a parallel read,
    /// which never sees the header, decides exactly as a sequential read does.
    func localOffset(of object: HealthObject) -> Int {
        guard let start = object.startDate else { return 0 }
        if case .string(let name)? = object.sampleAttributes?.metadata["HKTimeZone"], let zone = TimeZoneCache.zone(named: name) {
            return zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(start.secondsSince1970)))
        }
        return Int(start.utcOffsetSeconds)
    }

    /// Whether `object`'s dates match `window` as this query's own window is matched (each
    /// sample in its own time): for a run that reads wider than its window
    /// (`DaySelection.reading`) and keeps the window for what is not a day or a night.
    public func admitsDates(_ object: HealthObject, window: DateWindow) -> Bool {
        window.admits(object, localOffset: localOffset(of:))
    }

    @inline(__always)
    func admits(_ object: HealthObject) -> Bool {
        if let types = query.types, !types.contains(object.objectType.identifier) { return false }
        guard hasFilters else { return true }
        if let window = query.dateWindow, !window.admits(object, localOffset: localOffset(of:)) { return false }
        if !normalizedSources.isEmpty {
            let name: String?
            if case .clinicalRecord(let c) = object { name = c.sourceName } else { name = object.sampleAttributes?.sourceRevision.source.name }
            guard let name, normalizedSources.contains(SourceName.normalizedQuickly(name)) else { return false }
        }
        if !normalizedDevices.isEmpty {
            guard let name = object.sampleAttributes?.device?.name, normalizedDevices.contains(SourceName.normalizedQuickly(name)) else {
                return false
            }
        }
        if !query.uuids.isEmpty, !query.uuids.contains(object.uuid) { return false }
        if let enforcer, !enforcer.admits(object) { return false }
        if let predicate = query.predicate, !predicate.evaluate(object) { return false }
        return true
    }

    /// Applies output options (`--unit`) to an admitted object.
    ///
    /// - Throws: `QueryError` when a sample's unit does not convert.
    func transform(_ object: HealthObject) throws -> HealthObject {
        let object = enforcer?.redact(object) ?? object
        guard let unit = query.outputUnit, case .quantitySample(var sample) = object else { return object }
        sample.quantity = try Self.convert(sample.quantity, to: unit, type: sample.sample.sampleType.identifier)
        return .quantitySample(sample)
    }

    static func convert(_ quantity: Quantity, to unit: HealthUnit, type: String) throws -> Quantity {
        guard quantity.unit != unit.text else { return quantity }
        do {
            let from = try HealthUnit.cached(quantity.unit)
            let value = try from.convert(quantity.value.value, to: unit)
            return Quantity(value: ExportNumber(value), unit: unit.text)
        } catch {
            throw QueryError(.errorInvalidArgument, "a \(type) sample in '\(quantity.unit)' does not convert to '\(unit.text)'")
        }
    }
}

/// Resolves the type names a person typed on the command line.
public enum TypeNameResolver {
    /// `StepCount`, `stepcount`, `Steps`, `resting heart rate`, `HKQuantityTypeIdentifierStepCount`,
    /// `Workout`, `ActivitySummary` → full identifiers (`TypeNameMatch`). Any full identifier of
    /// HealthKit's form is taken as written, known or not: types newer than healthport are read,
    /// written and counted, so they can be selected. A name that finds no type is refused with
    /// the closest known one, and one that finds several with their names.
    ///
    /// - Throws: `QueryError.errorInvalidArgument` naming the first name that matches nothing.
    public static func resolve(_ names: [String]) throws -> Set<String> {
        var result = Set<String>()
        for raw in names {
            for part in raw.split(separator: ",") {
                let name = part.trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else { continue }
                guard let identifier = TypeCatalogue.resolve(userTypeName: name) else {
                    throw QueryError(.errorInvalidArgument, unknownTypeMessage(name), argument: .types)
                }
                result.insert(identifier)
            }
        }
        return result
    }

    /// "unknown type 'X' (did you mean Y?)": a name HealthKit does not define, in one line; or,
    /// for a name that fits several types equally ('heart'), "type 'X' is ambiguous: A, B or C".
    public static func unknownTypeMessage(_ name: String) -> String {
        let shown = Self.shown(name)
        if case .ambiguous(let identifiers) = TypeCatalogue.match(typeName: name) {
            var names = identifiers.prefix(8).map(TypeCatalogue.shortName(of:))
            if identifiers.count > 8 { names.append("\(identifiers.count - 8) more") }
            let list = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names.joined()
            return "type '\(shown)' is ambiguous: \(list)"
        }
        return "unknown type '\(shown)'" + (suggest(name).map { " (did you mean \($0)?)" } ?? "")
    }

    /// A typed name as a message quotes it: its first 80 characters, control characters as `?`.
    static func shown(_ name: String) -> String {
        String(name.unicodeScalars.prefix(80).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
    }

    /// The known type name closest to `name`, if one is close enough to be a typo: the short
    /// name (`StepCount`) for a short name, the full identifier for an identifier.
    static func suggest(_ name: String) -> String? {
        let typedIdentifier = name.hasPrefix("HK")
        var stem = name
        for prefix in TypeCatalogue.prefixes where name.hasPrefix(prefix) {
            stem = String(name.dropFirst(prefix.count))
            break
        }
        let target = Array(stem.lowercased())
        let limit = max(2, target.count / 4)
        var best: (String, Int)? = nil
        for entry in shortNames {
            guard let distance = EditDistance.within(limit, target, entry.letters) else { continue }
            if best.map({ distance < $0.1 }) ?? true {
                best = (typedIdentifier ? entry.identifier : entry.short, distance)
            }
        }
        // The names people use (`weigth` is a typo of `weight`, BodyMass's common name).
        if !typedIdentifier {
            for (name, short) in TypeCatalogue.commonNames {
                guard let distance = EditDistance.within(limit, target, Array(name)) else { continue }
                if best.map({ distance < $0.1 }) ?? true {
                    best = ("\(name) (\(short))", distance)
                }
            }
        }
        return best?.0
    }

    /// Each known type's short name, and its letters in lower case to compare with: made once.
    private static let shortNames: [(identifier: String, short: String, letters: [Character])] = TypeCatalogue.all.map { entry in
        let short = TypeCatalogue.shortName(of: entry.identifier)
        return (entry.identifier, short, Array(short.lowercased()))
    }
}
