import HealthModel

/// Ids of the resources healthport makes besides its objects' Observations: devices, sources, the
/// patient, the days' and nights' Observations (`DerivedResourceID`, which the Patient's id,
/// `PersonIdentity`, shares). An object's resource takes the object's own uuid
/// (`ObjectIdentity`).
enum FHIRResourceID {
    /// The id for `fields` in `domain` (`Device`, `Source`, `Patient`).
    static func derive(_ domain: String, _ fields: [String?]) -> ObjectUUID { DerivedResourceID.derive(domain, fields) }
}
