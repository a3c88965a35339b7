/// A part of a request that an error or a warning can be about: the predicate, the types, the
/// anchor, the store, the output, … — named by each face in its own words.
///
/// The same request reaches the engine through several faces, and each spells its parts
/// differently: the command line's `--where`, `--tz` and `--anchor-date` are the assistant's
/// `predicate`, `timeZone` and `anchorDate`, and HealthKitPort has no names at all (its
/// arguments are Swift values). So the library never writes a face's spelling into a message:
/// an error carries the part at fault as this value (`RunError.argument`), and a message that
/// mentions another part holds it as a value too (`DiagnosticText`). The CLI maps each case to
/// its option, the assistant to its tool argument, and everything else reads `neutralName`.
///
/// Like GRDB's `DatabaseError.resultCode`, the value is for switching on; a face never
/// recovers it from the message's text.
public enum RequestArgument: String, Sendable, Hashable, CaseIterable {
    /// The predicate (HealthKit: an `NSPredicate`); faults in it also carry a column.
    case predicate
    /// The sample or object types selected.
    case types
    /// The unit quantities are written in.
    case unit
    /// The time zone dates without an offset are read in, and days are cut in.
    case timeZone
    /// Where a window of samples begins.
    case start
    /// Where a window of samples ends.
    case end
    /// An anchor: where a change query goes on from.
    case anchor
    /// The date statistics' intervals align with (HealthKit: `anchorDate`).
    case anchorDate
    /// The sort descriptors.
    case sort
    /// The statistics options (cumulativeSum, discreteAverage, …).
    case statisticsOptions
    /// The most objects or changes to return.
    case limit
    /// The healthport store (SQLite) read or written.
    case store
    /// The consumer's policy file.
    case policyFile
    /// The consumer's name, for a new policy file.
    case consumer
    /// The types an authorization request asks to read (HealthKit: `read:`).
    case readTypes
    /// The types an authorization request asks to share (HealthKit: `toShare:`).
    case shareTypes
    /// The type of a per-object authorization request (HealthKit: `for: objectType`).
    case perObjectType
    /// The export read.
    case input
    /// Where output goes: a file, a folder or standard output.
    case output
    /// The output format.
    case format
    /// How a batch's output is partitioned (by person, by type).
    case partition
    /// The file that names persons in a batch.
    case personIDs
    /// Going on with a batch that was interrupted.
    case resume
    /// Keeping on writing the changes of later imports.
    case follow
    /// Importing an export the store would refuse.
    case force
    /// Converting the objects before the break of a broken export.
    case salvage
    /// Reading the CDA document beside the export.
    case cda
    /// Writing the summary tables beside the objects.
    case summaries
    /// The de-identification key file.
    case deidentify
    /// Workouts' route points inline.
    case includeRoutes

    /// How a face with no names of its own speaks of the part: "the predicate", "the anchor".
    ///
    /// This is what `message` and `description` of every error read, so a message reads as
    /// prose in a log, in HealthKitPort's `HKError`, or wherever no face renders it.
    public var neutralName: String {
        switch self {
        case .predicate: "the predicate"
        case .types: "the types"
        case .unit: "the unit"
        case .timeZone: "the time zone"
        case .start: "the start date"
        case .end: "the end date"
        case .anchor: "the anchor"
        case .anchorDate: "the anchor date"
        case .sort: "the sort"
        case .statisticsOptions: "the statistics options"
        case .limit: "the limit"
        case .store: "the store"
        case .policyFile: "the policy file"
        case .consumer: "the consumer"
        case .readTypes: "the types to read"
        case .shareTypes: "the types to share"
        case .perObjectType: "the per-object type"
        case .input: "the input"
        case .output: "the output"
        case .format: "the format"
        case .partition: "the partition"
        case .personIDs: "the person-id file"
        case .resume: "the resume option"
        case .follow: "the follow option"
        case .force: "the force option"
        case .salvage: "the salvage option"
        case .cda: "the CDA option"
        case .summaries: "the summary tables"
        case .deidentify: "the de-identification"
        case .includeRoutes: "the route points"
        }
    }

    /// Whether the part belongs to an authorization request (HealthKit's
    /// `requestAuthorization(toShare:read:)` and `requestPerObjectReadAuthorization(for:)`),
    /// whose invalid arguments HealthKit reports with a code a face may show.
    public var isAuthorizationRequestPart: Bool {
        switch self {
        case .readTypes, .shareTypes, .perObjectType: true
        default: false
        }
    }
}

/// Another request the caller can make instead, named by each face in its own words: the CLI
/// names a command, the assistant a tool.
///
/// A message suggests one where a face would otherwise have to name its own command (`auth
/// request-per-object`, `healthport import …`), which the library must not spell.
public enum SuggestedRequest: Sendable, Hashable {
    /// Asking for per-object authorization (HealthKit: `requestPerObjectReadAuthorization`).
    case perObjectAuthorization
    /// Importing an export into the store at this path, which creates it.
    case importExport(store: String)
    /// Converting an export into an export archive (a zip in Apple's format).
    case exportArchive

    /// How a face with no names of its own speaks of the request.
    public var neutralName: String {
        switch self {
        case .perObjectAuthorization: "a per-object authorization request"
        case .importExport: "an import of an export"
        case .exportArchive: "a conversion to the export format"
        }
    }
}
