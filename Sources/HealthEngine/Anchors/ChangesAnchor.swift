import Foundation
import HealthQuery
import HealthStore

/// What a consumer of changes has already seen (HealthKit: `HKQueryAnchor`), in the form its
/// input keeps it: an export's anchor holds the uuids the query saw (an export has no history
/// of its own), a store's is an opaque token of its change sequence.
public enum ChangesAnchor: Sendable, Equatable {
    /// An export's anchor (`healthport anchor`, or what `changes EXPORT` wrote).
    case export(QueryAnchor)
    /// A store's anchor: a token the store printed (`StoreAnchor.token`), or
    /// `StoreAnchor.originText` for the origin. Checked against the store when a run opens it.
    case store(String)

    /// An anchor as a face was given it (`--anchor`), for `input`: for an export a file
    /// (`healthport anchor`'s, or the one `changes --anchor-output` wrote); for the store a
    /// token (or `0`, the origin), or a file holding one (what `--anchor-output` writes) or
    /// holding the JSON a change stream ended with (its `end` line or its `newAnchor` object).
    /// `nil` is the origin.
    ///
    /// - Throws: `RunError` (`.invalidRequest`): for the store, anything else (a number is
    ///   passed on: healthport's anchors before 0.3.0 were positions, which the store judges); for an
    ///   export, what reading the anchor file throws.
    public static func parse(_ text: String?, for input: ObjectInput) throws(RunError) -> ChangesAnchor? {
        guard let text else { return nil }
        switch input {
        case .export: return .export(try RunError.wrapping { try QueryAnchor.load(from: text) })
        case .store: return .store(try storeToken(text))
        }
    }

    /// The token a store anchor's text stands for (see `parse`).
    static func storeToken(_ text: String) throws(RunError) -> String {
        try RunError.wrapping {
            if let anchor = anchorText(text) { return anchor }
            // A number: an anchor of healthport before 0.3.0, when anchors were positions. The store
            // takes it from its owner, and tells a consumer bound by a policy to start over
            // (`HealthStore.anchor(token:allowsPosition:)`).
            if Int(text) != nil { return text }
            guard FileManager.default.fileExists(atPath: text) else {
                throw StoreError(.invalidAnchor, "\(argument: .anchor): '\(text.prefix(80))' is neither a store anchor nor a file")
            }
            let notAnAnchor = StoreError(
                .invalidAnchor, "\(text): not a store anchor (the store's anchors are tokens; anchor files of exports belong to exports)")
            // An anchor file or an end line is short: a file of 4 KiB or more is not one.
            guard let handle = FileHandle(forReadingAtPath: text) else { throw notAnAnchor }
            defer { try? handle.close() }
            let data = try handle.read(upToCount: 4096) ?? Data()
            let content = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if let anchor = anchorText(content) { return anchor }
            if Int(content) != nil { return content }
            guard data.count < 4096, let anchor = anchorToken(inJSON: Data(content.utf8)) else { throw notAnAnchor }
            return anchor
        }
    }

    /// A token, or the origin's `0`.
    static func anchorText(_ text: String) -> String? {
        text == StoreAnchor.originText || StoreAnchor.looksLikeToken(text) ? text : nil
    }

    /// The anchor token in a change stream's `end` line or `newAnchor` object.
    static func anchorToken(inJSON data: Data) -> String? {
        guard var object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        if let nested = object["newAnchor"] as? [String: Any] { object = nested }
        return (object["anchor"] as? String).flatMap(anchorText)
    }

    /// The store's token (`nil` for an export's anchor).
    public var storeToken: String? {
        if case .store(let token) = self { return token }
        return nil
    }
}
