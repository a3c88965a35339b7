import HealthModel

/// How a Health Connect export's samples rank where they overlap, so that the one merge every
/// total goes through (`IntervalAggregation.mergedSum`: over the elementary segments between
/// all boundaries, the best-ranked samples open on a segment contribute their value pro-rated
/// by overlap) gives Health Connect's own totals (`PriorityRecordsAggregator` in AOSP):
///
/// - the tier is the app's place on the export's priority list for the type's category
///   (`HealthConnectPriority`), so the highest-priority app open on a segment wins it;
/// - an app missing from the list is left out of the totals altogether;
/// - within one app, the record modified last wins (`HealthConnectMetadataKeys` last modified
///   date, to the second), which makes one record the winner of a segment where Apple's merge
///   would count every sample of the winning source.
///
/// Types Health Connect does not total by priority keep the Health app's tiers, and so do
/// samples that name no app's package (Apple's exports name none). One collection can hold
/// both phones' samples (a store with both kinds of export): each platform's samples rank by
/// its own rule, and where the two overlap Apple's tiers come first (the tiers of the list
/// start after `SourcePriority.defaultTiers`), so a minute both phones recorded counts once,
/// from Apple's side. A person's own `--source-priority` replaces both.
enum HealthConnectRanking {
    /// The metadata key of the record's last modification (HealthConnect's
    /// `HealthConnectMetadataKeys.lastModifiedDate`; HealthQuery does not link that module).
    static let lastModifiedKey = "HealthConnectLastModifiedDate"

    enum Outcome {
        /// Ranked by the list: its tier and its order within the tier.
        case ranked(tier: Int, order: Int32)
        /// On no list: left out of the totals.
        case leftOut
        /// A type Health Connect does not total by priority: the usual tiers.
        case unranked
    }

    static func rank(_ sample: SampleAttributes, type: String, priority: HealthConnectPriority) -> Outcome {
        guard let app = sample.sourceRevision.source.bundleIdentifier, let place = priority.rank(ofApp: app, forType: type) else {
            return .unranked
        }
        guard let tier = place else { return .leftOut }
        return .ranked(tier: SourcePriority.defaultTiers + tier, order: recencyOrder(sample))
    }

    /// Lower for a later modification: seconds before 2038 (the largest `Int32`), so the record
    /// modified last has the smallest order and wins within its app. A record without the date
    /// ranks after every record with one.
    static func recencyOrder(_ sample: SampleAttributes) -> Int32 {
        guard case .date(let modified)? = sample.metadata[lastModifiedKey] else { return Int32.max }
        return Int32(clamping: Int64(Int32.max) - 1 - max(0, modified.secondsSince1970))
    }
}
