/// A top-level element healthport has no model for, passed through whole.
public struct UnknownObject: Hashable, Sendable {
    public var uuid: ObjectUUID
    public var element: GenericElement

    public init(uuid: ObjectUUID = ObjectUUID(high: 0, low: 0), element: GenericElement) {
        self.uuid = uuid
        self.element = element
    }
}
