import ArgumentParser
import Foundation
import HealthEngine
import HealthModel
import HealthQuery
import HealthportCommandLine

extension Healthport {
    /// `healthport auth`: the consumer's authorization policy, with HealthKit's model.
    struct Auth: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decide what a consumer (app, clinician, study) may read and share.",
            discussion: "Manages a policy file (healthport-policy(5)) the way HealthKit manages an app's authorization. See healthport-auth(1).",
            subcommands: [Status.self, RequestStatus.self, Request.self, RequestPerObject.self])
    }
}
