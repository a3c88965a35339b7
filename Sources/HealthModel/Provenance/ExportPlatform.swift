/// Which phone's health store an export comes from. One person may have both (an iPhone and
/// an Android phone, or one after the other), and their exports are of different stores: each
/// export is whole for its own platform and says nothing of the other's records. So the store
/// replaces, at each import, only the objects of the import's platform (`healthport-store(5)`),
/// and a Health Connect export totals by its own priority list.
public enum ExportPlatform: String, Hashable, Sendable, CaseIterable {
    /// Apple's Health app (`export.zip`), and healthport's NDJSON that names no platform.
    case appleHealth
    /// Android's Health Connect (`health_connect_export.zip`).
    case healthConnect
}
