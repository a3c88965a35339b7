import Foundation

/// Sizes as people read them: `812 B`, `1.5 MB` (powers of 1000, as file managers show them).
public enum ByteCount {
    public static func text(_ n: Int64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(n)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(n) B" : String(format: "%.1f %@", value, units[unit])
    }
}
