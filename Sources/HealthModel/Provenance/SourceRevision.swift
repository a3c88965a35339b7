/// The app or device that saved an object (HealthKit: `HKSource`).
///
/// Exports carry only the name. The bundle identifier is not exported, so it is always `nil`
/// here: healthport never invents one.
public struct Source: Hashable, Sendable {
    /// The user-visible name, byte-exact as exported (`Simon’s iPhone` keeps its U+2019).
    public var name: String
    /// Never exported; kept for HealthKit's shape.
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
