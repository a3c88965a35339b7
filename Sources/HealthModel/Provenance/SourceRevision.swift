/// The app or device that saved an object (HealthKit: `HKSource`).
///
/// Apple's exports carry only the name. Their bundle identifier is not exported, so it is `nil`
/// for them: healthport never invents one. A Health Connect export names each app by its
/// package (`com.google.android.apps.fitness`), which is kept here.
public struct Source: Hashable, Sendable {
    /// The user-visible name, byte-exact as exported (`Simon’s iPhone` keeps its U+2019).
    public var name: String
    /// Not in Apple's exports (kept for HealthKit's shape); a Health Connect app's package name.
    public var bundleIdentifier: String?

    public init(name: String, bundleIdentifier: String? = nil) {
        self.name = name
        self.bundleIdentifier = bundleIdentifier
    }
}

/// A specific revision of a source (HealthKit: `HKSourceRevision`).
///
/// Only `source.name` and `version` are exported; `productType` and `operatingSystemVersion`
/// stay `nil`.
public struct SourceRevision: Hashable, Sendable {
    public var source: Source
    /// The source's version string, opaque (`4.3.1`, `2160040`, `2890.4.12.2.3`).
    public var version: String?
    public var productType: String?
    public var operatingSystemVersion: String?

    public init(source: Source, version: String? = nil) {
        self.source = source
        self.version = version
    }
}
