/// The version of the rules healthport's summaries are made by: which samples a day counts,
/// how sources merge, where nights and days are cut. Every table of days, nights or workouts it
/// keeps records it (the store's `store_info.summary_rules`, the lake's `_manifest.json`), so
/// that days made by two sets of rules never sit side by side: a store made by other rules has
/// its tables remade, whole, on first use, and a lake resumed under other rules is refused.
///
/// Raise it with any change to a number a summary shows, and say what changed here and in
/// CHANGELOG.md.
///
/// 1. The tables as made from store layout `v4` on (a category type's every sample counted;
///    sleep's day the time its samples cover; nights cut by a date window).
/// 2. Each category type's day by its `CategoryDayMeasure` (stand hours stood, sleep's day its
///    night, events counted, "not present" not counted); naps apart from the night; the `days`
///    and `workout_summary` tables.
public enum SummaryRules {
    public static let version = 2
}
