/// Facts about healthport's output formats.
public enum HealthOutputFormat {
    /// The version of the JSON, NDJSON, CSV and Parquet schemas. Bumped on any incompatible change.
    public static let version = 1
}
