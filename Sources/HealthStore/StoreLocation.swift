import Foundation

/// Where the store lives: `--store PATH`, else `$HEALTHPORT_STORE`, else
/// `$XDG_DATA_HOME/healthport/health.sqlite` (`~/.local/share/healthport/health.sqlite`).
public enum StoreLocation {
    public static let environmentVariable = "HEALTHPORT_STORE"

    public static func resolve(_ option: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let option, !option.isEmpty { return option }
        if let path = environment[environmentVariable], !path.isEmpty { return path }
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            dataHome = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        }
        return dataHome + "/healthport/health.sqlite"
    }
}
