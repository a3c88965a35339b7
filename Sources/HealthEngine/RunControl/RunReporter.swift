import HealthQuery
import HealthStore
import HealthExport
import HealthModel

/// How a run tells its caller what is happening, as values: the first of each kind of warning
/// (repeats are counted in the run's summary), progress, and notes about a batch's inputs.
///
/// The library never prints: the CLI turns these into lines on standard error, a server into
/// log messages or notifications. Closures may be called from the reading thread.
public struct RunReporter: Sendable {
    public var warning: @Sendable (ExportWarning) -> Void
    public var progress: @Sendable (RunProgress) -> Void
    /// A batch's per-input results ("converted", "failed", "skipped").
    public var note: @Sendable (RunNote) -> Void

    public init(
        warning: @escaping @Sendable (ExportWarning) -> Void = { _ in },
        progress: @escaping @Sendable (RunProgress) -> Void = { _ in },
        note: @escaping @Sendable (RunNote) -> Void = { _ in }
    ) {
        self.warning = warning
        self.progress = progress
        self.note = note
    }

    /// Reports nothing.
    public static let silent = RunReporter()

    /// Says what opening `store` changed in its file, if anything (`StoreUpgrade`).
    func storeOpened(_ store: HealthStore) {
        guard let upgrade = store.upgrade else { return }
        var text = "\(store.path): "
        if upgrade.from.layout != upgrade.to.layout {
            text += "upgraded from store layout v\(upgrade.from.layout) to v\(upgrade.to.layout)"
            if upgrade.remadeSummaries { text += "; " }
        }
        if upgrade.remadeSummaries {
            let before = upgrade.from.summaryRules.map { "rules \($0)" } ?? "older rules"
            text += "summary tables made anew by summary rules \(upgrade.to.summaryRules ?? SummaryRules.version) (\(before) made them)"
        }
        note(RunNote(.storeUpgraded, text, location: store.path))
    }

    /// This reporter as a run may use it: the reader's warnings are dropped unless the query
    /// discloses facts about the export (`Disclosure.exportFacts`: not under a policy), because
    /// they describe the export's content (a type, a count, a line of a record) and could hint
    /// at what the policy hides.
    func restricted(to disclosure: Disclosure) -> RunReporter {
        guard !disclosure.exportFacts else { return self }
        var copy = self
        copy.warning = { _ in }
        return copy
    }
}

/// How far a run is.
public struct RunProgress: Sendable, Equatable {
    /// Bytes of the export read so far (0 for the store).
    public var bytesRead: Int64
    /// The export's size when it is known (a file or a zip's document; not a pipe).
    public var totalBytes: Int64?
    /// Objects passed on so far, after the query and the policy.
    public var objects: Int

    public init(bytesRead: Int64, totalBytes: Int64?, objects: Int) {
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
        self.objects = objects
    }
}

/// What a batch says about one of its inputs.
public struct RunNote: Sendable {
    public enum Kind: Sendable, Equatable {
        /// Converted and published.
        case converted
        /// Skipped by `resume`: already complete.
        case skipped
        /// Failed; the batch goes on with the others.
        case failed
        /// A store this run opened was upgraded: a newer layout, or summary tables made anew by
        /// newer rules (`StoreUpgrade`), said once, by the run that did it.
        case storeUpgraded
    }

    public var kind: Kind
    /// The note, with the parts of the request it mentions as values (a failed input's error
    /// may suggest an option), for each face to render in its own words.
    public var text: DiagnosticText
    /// The input (or the place in it) the note is about.
    public var location: String?
    /// A failed input's error, typed: its category and exit status, for a face that reports
    /// fields rather than prose (`--diagnostics json`).
    public var failure: RunError?

    public init(_ kind: Kind, _ message: String, location: String? = nil, failure: RunError? = nil) {
        self.init(kind, DiagnosticText(message), location: location, failure: failure)
    }

    public init(_ kind: Kind, _ text: DiagnosticText, location: String? = nil, failure: RunError? = nil) {
        self.kind = kind
        self.text = text
        self.location = location
        self.failure = failure
    }

    /// The note in no face's words.
    public var message: String { text.neutral }
}
