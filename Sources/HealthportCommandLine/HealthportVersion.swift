/// healthport's version, which both executables print (`healthport --version`,
/// `healthport-mcp --version`) and write into what they produce (the lake's manifest, the
/// assistant's server info). Python's build (`python/hatch_build.py`) reads it from here.
package enum HealthportVersion {
    package static let version = "0.7.0"
}
