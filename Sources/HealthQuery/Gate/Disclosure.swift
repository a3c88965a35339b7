/// What a run may tell about an export besides the objects its query admits, decided once from
/// the query, so no run decides it again with a `policy != nil` of its own.
///
/// HealthKit hands an app the samples it may read and nothing about the store around them; a
/// consumer under a policy learns no more from healthport. The owner, reading without a policy,
/// is told about the export as a file too. Each field is one thing a run could otherwise let
/// slip, and says who may have it.
public struct Disclosure: Sendable, Equatable {
    /// Facts about the export as a file: its size, the reader's warnings and their counts, the
    /// bytes repaired, the unknown element names passed through, which parser read the body
    /// and where libxml2 took over. They describe everything in the export, what a policy
    /// hides included: the owner's only.
    public var exportFacts: Bool

    /// The export as a whole: every side file listed by kind whatever the objects, and the CDA
    /// document (it holds everything and cannot be filtered). Only when nothing is selected:
    /// no policy, no type, no predicate, no dates, no sources, devices or uuids, no unit.
    public var wholeExport: Bool

    /// Personal details that are no HealthKit type, so no policy can grant them (the name an
    /// ECG file's header carries): the owner's only.
    public var personalDetails: Bool

    /// The store's history as the store keeps it: when each import was (its export's date,
    /// even when it brought only hidden types) and positions in the change sequence in the
    /// clear (the numeric anchors of healthport before 0.3.0 name a place among every type's changes).
    /// The owner's only; a consumer is shown the date of the latest import that changed what
    /// it sees, and anchors as opaque tokens.
    public var storeHistory: Bool

    /// The owner with nothing selected: everything.
    public static let everything = Disclosure(exportFacts: true, wholeExport: true, personalDetails: true, storeHistory: true)

    public init(exportFacts: Bool, wholeExport: Bool, personalDetails: Bool, storeHistory: Bool) {
        self.exportFacts = exportFacts
        self.wholeExport = wholeExport
        self.personalDetails = personalDetails
        self.storeHistory = storeHistory
    }

    /// What `query` discloses. A de-identified read is never the whole export (the CDA document
    /// and the side files hold what de-identification removes) and never carries personal
    /// details; the facts about the export go to its owner, who is running it.
    public init(_ query: ObjectQuery) {
        let owner = query.policy == nil
        let deidentifies = query.deidentification != nil
        let selectsNothing = query.types == nil && query.predicate == nil && query.dateWindow == nil && query.sources.isEmpty
            && query.devices.isEmpty && query.uuids.isEmpty && query.outputUnit == nil
        self.init(
            exportFacts: owner, wholeExport: owner && selectsNothing && !deidentifies, personalDetails: owner && !deidentifies, storeHistory: owner)
    }
}

extension QueryExecutor {
    /// What the query's runs may tell besides its objects.
    public var disclosure: Disclosure { Disclosure(query) }

    /// The owner's query with nothing selected: every object, as it was read.
    public static let everything = QueryExecutor(ObjectQuery())
}
