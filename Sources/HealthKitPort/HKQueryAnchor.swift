import Foundation

/// A position in the store's change sequence (HealthKit: `HKQueryAnchor`): what an anchored
/// query has seen.
///
/// Opaque as in HealthKit; underneath it is the store's anchor number, the same number
/// `healthport changes --store` prints as `newAnchor`, so an anchor saved by a shell job and
/// one saved by Swift code are interchangeable (`HKQueryAnchor(fromValue:)`). Anchors belong to
/// one store: an anchor ahead of the store is `errorInvalidArgument`.
public final class HKQueryAnchor: NSObject, @unchecked Sendable {
    let value: Int

    /// An anchor from its number (HealthKit: `init(fromValue:)`, kept for the integer anchors
    /// of the iOS 8 API); here the number `healthport changes --store` prints.
    public init(fromValue value: Int) {
        self.value = value
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool { (object as? HKQueryAnchor)?.value == value }
    public override var hash: Int { value }
    public override var description: String { "HKQueryAnchor(\(value))" }
}
