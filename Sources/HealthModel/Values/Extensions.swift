/// An XML element healthport has no model for, kept whole.
///
/// Element kinds and attributes that a future iOS adds are not errors: they are passed through
/// in this generic form (and counted by `healthport info`), never dropped.
public struct GenericElement: Hashable, Sendable {
    public var name: String
    public var attributes: [GenericAttribute]
    public var children: [GenericElement]
    /// Character data directly inside the element, whitespace-trimmed; `nil` when there is none.
    public var text: String?

    public init(name: String, attributes: [GenericAttribute] = [], children: [GenericElement] = [], text: String? = nil) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }
}

/// An attribute name and its value, both as exported.
public struct GenericAttribute: Hashable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// What an element carried beyond healthport's model: unknown attributes and unknown children.
public struct Extensions: Hashable, Sendable {
    public var attributes: [GenericAttribute]
    public var elements: [GenericElement]

    public init(attributes: [GenericAttribute] = [], elements: [GenericElement] = []) {
        self.attributes = attributes
        self.elements = elements
    }

    public var isEmpty: Bool { attributes.isEmpty && elements.isEmpty }

    public static let none = Extensions()
}
