import Foundation
import HealthModel
import HealthQuery

/// Every type healthport knows (`healthport types`), with what HealthKit says of it: its kind,
/// the canonical unit fixing a quantity type's dimension, and how its values combine; given an
/// export, how many objects of each it holds, types healthport does not know included.
///
/// So that a person can find the name to give `--type` without reading HealthKit's headers, and
/// see at a glance what an export holds and what healthport passes through unmodelled.
public struct TypeList: Sendable {
    public struct Entry: Codable, Sendable, Equatable {
        /// The short name (`StepCount`), what `--type` takes.
        public var name: String
        /// The full identifier (`HKQuantityTypeIdentifierStepCount`).
        public var identifier: String
        /// `quantity`, `category`, `correlation`, `workout`, … or `other`: a kind healthport keeps
        /// but does not model, passed through as written (healthport-formats(5), `unknown`).
        public var kind: String
        /// Quantity types: the unit fixing the dimension (HealthKit's canonical unit).
        public var canonicalUnit: String?
        /// Quantity types: `cumulative`, `discreteArithmetic`, … (`HKQuantityAggregationStyle`).
        public var aggregationStyle: String?
        /// With an export: how many objects of the type it holds (characteristics: 1 when set;
        /// workout routes and ECGs: their files).
        public var count: Int?
        /// Whether healthport's catalogue knows the type (an export can hold newer ones).
        public var isKnown: Bool

        enum CodingKeys: String, CodingKey { case name, identifier, kind, canonicalUnit, aggregationStyle, count, isKnown = "known" }
    }

    /// The export counted, as shown in messages; `nil` for the catalogue alone.
    public var input: String?
    public var types: [Entry]

    /// The catalogue, or the entries for `identifiers` (which may name types it does not know).
    public static func catalogue(only identifiers: Set<String>? = nil) -> TypeList {
        var entries = TypeCatalogue.all.filter { identifiers?.contains($0.identifier) ?? true }.map(Entry.init(catalogue:))
        for identifier in identifiers ?? [] where TypeCatalogue.entry(for: identifier) == nil {
            entries.append(Entry(unknown: identifier, kind: ObjectType(recordType: identifier).kind.rawValue))
        }
        return TypeList(input: nil, types: entries.sorted(by: Entry.listOrder))
    }

    /// The catalogue (or `identifiers`' part of it) with the counts of an export's inventory.
    public static func counting(_ info: ExportInfo, only identifiers: Set<String>? = nil) -> TypeList {
        var list = catalogue(only: identifiers)
        list.input = info.document.input
        var index: [String: Int] = [:]
        for (i, entry) in list.types.enumerated() {
            index[entry.identifier] = i
            list.types[i].count = 0
        }
        for counted in info.document.types {
            if let i = index[counted.type] {
                list.types[i].count = (list.types[i].count ?? 0) + counted.count
            } else if identifiers == nil {
                var entry = Entry(unknown: counted.type, kind: Entry.kind(ofObjectKind: counted.kind))
                entry.count = counted.count
                index[counted.type] = list.types.count
                list.types.append(entry)
            }
        }
        for (name, _) in info.document.characteristics {
            if let i = index[Entry.characteristicIdentifier(name)] { list.types[i].count = 1 }
        }
        // Routes live inside workouts and ECGs beside the export: their files are what there is
        // to count (GPX files of the workouts read, the ECG CSV files).
        if let files = info.document.sideFiles {
            if let i = index[ObjectType.workoutRoute.identifier] { list.types[i].count = files.workoutRoutes }
            if let i = index["HKDataTypeIdentifierElectrocardiogram"] { list.types[i].count = files.electrocardiograms }
        }
        list.types.sort(by: Entry.listOrder)
        return list
    }

    /// A table: name, kind, unit, aggregation style (and count), one type a line.
    public func text() -> String {
        let counted = types.contains { $0.count != nil }
        var rows = [["TYPE", "KIND", "UNIT", "AGGREGATION"] + (counted ? ["COUNT"] : [])]
        for t in types {
            var row = [t.isKnown ? t.name : t.identifier, t.kind, t.canonicalUnit ?? "-", t.aggregationStyle ?? "-"]
            if counted { row.append(t.count.map(String.init) ?? "-") }
            rows.append(row)
        }
        var widths = [Int](repeating: 0, count: rows[0].count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        return rows.map { row in
            row.enumerated().map { i, cell in
                if i == row.count - 1 && counted { return String(repeating: " ", count: widths[i] - cell.count) + cell }
                return i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// One JSON document: `{"input": …, "types": [{name, identifier, kind, …}]}`.
    public func json() throws -> String {
        struct Document: Encodable {
            var input: String?
            var types: [Entry]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(Document(input: input, types: types)), as: UTF8.self) + "\n"
    }
}

extension TypeList.Entry {
    init(catalogue entry: TypeCatalogue.Entry) {
        self.init(
            name: TypeCatalogue.shortName(of: entry.identifier), identifier: entry.identifier, kind: entry.kind.rawValue,
            canonicalUnit: entry.canonicalUnit, aggregationStyle: entry.aggregationStyle?.rawValue, count: nil, isKnown: true)
    }

    init(unknown identifier: String, kind: String) {
        self.init(
            name: TypeCatalogue.shortName(of: identifier), identifier: identifier, kind: kind, canonicalUnit: nil,
            aggregationStyle: nil, count: nil, isKnown: false)
    }

    /// Kinds in the order HealthKit's documentation lists them, then by name.
    static func listOrder(_ a: Self, _ b: Self) -> Bool {
        let order = ObjectType.Kind.allCases.map(\.rawValue)
        let ia = order.firstIndex(of: a.kind) ?? order.count
        let ib = order.firstIndex(of: b.kind) ?? order.count
        if ia != ib { return ia < ib }
        return (a.name, a.identifier) < (b.name, b.identifier)
    }

    /// The kind of a type an inventory counted but the catalogue does not know, from the kind
    /// of its objects (`quantitySample` → `quantity`).
    static func kind(ofObjectKind objectKind: String) -> String {
        switch objectKind {
        case "quantitySample": return ObjectType.Kind.quantity.rawValue
        case "categorySample": return ObjectType.Kind.category.rawValue
        case "clinicalRecord": return ObjectType.Kind.clinicalRecord.rawValue
        case "correlation": return ObjectType.Kind.correlation.rawValue
        default: return ObjectType.Kind.other.rawValue
        }
    }

    /// The identifier of a characteristic as `ExportInfo` names it (`dateOfBirth`, or the
    /// export's own attribute name for the others).
    static func characteristicIdentifier(_ name: String) -> String {
        Characteristics.fields.first { $0.name == name }?.identifier ?? name
    }
}
