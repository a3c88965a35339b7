import Foundation

/// Where the store lives: `--store PATH`, else `$HEALTHPORT_STORE`, else
/// `$XDG_DATA_HOME/healthport/health.sqlite` (`~/.local/share/healthport/health.sqlite`).
public enum StoreLocation {
    public static let environmentVariable = "HEALTHPORT_STORE"

    public static func resolve(_ option: String?, environment: [String: String]) -> String {
        if let option, !option.isEmpty { return option }
        if let path = environment[environmentVariable], !path.isEmpty { return path }
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            dataHome = home(environment) + "/.local/share"
        }
        return dataHome + "/healthport/health.sqlite"
    }

    /// `$HOME` when it is an absolute path; else the account's home directory from the user
    /// database (an empty `HOME=` must not put a person's store under `/.local`).
    static func home(_ environment: [String: String]) -> String {
        if let home = environment["HOME"], home.hasPrefix("/"), home != "/" || getuid() == 0 { return home }
        if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir {
            let path = String(cString: directory)
            if path.hasPrefix("/") { return path }
        }
        return NSHomeDirectory()
    }
}
