// Runs one part of Apple's HealthKit documentation code (one file each beside this one) against
// an Apple Health export or a healthport store. In every part, Apple's code is kept as written
// but for `import HealthKitPort` and the line that opens the store; where Apple leaves a
// placeholder ("Process the batch of results here."), the part prints what it got.
//
//     healthkitport-seeds batches      EXPORT-OR-STORE            seed 004's batch loop
//     healthkitport-seeds monitor      EXPORT-OR-STORE            the batch loop, then seed 004's
//                                                                 monitoring loop (until killed)
//     healthkitport-seeds prescription EXPORT-OR-STORE [POLICY]   seed 000/002's newest prescription;
//                                                                 with a policy, then seed 002's
//                                                                 per-object request and the query again
//     healthkitport-seeds authorization EXPORT-OR-STORE POLICY    seed 003: availability, request
//                                                                 status, request, status per type
//     healthkitport-seeds steps        EXPORT-OR-STORE            steps per day (not a seed: the
//                                                                 statistics the README shows)
//
// With a policy file (healthport-policy(5)) the store answers as HealthKit answers an app, and
// authorization requests ask on the terminal: the sheet `healthport auth request` shows, on
// standard error, answered with y, n or q on standard input.
// `stdout`, a C global, for the first line below (Swift 6 checks globals' concurrency safety);
// imported before Foundation, which would import the C library without `@preconcurrency`.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Foundation
import HealthKitPort

// Each printed line reaches a pipe at once (the monitoring loop runs until it is killed).
setvbuf(stdout, nil, _IOLBF, 0)

let arguments = Array(CommandLine.arguments.dropFirst())
let parts = ["batches", "monitor", "prescription", "authorization", "steps"]
guard arguments.count == 2 || arguments.count == 3, parts.contains(arguments[0]),
    arguments.count == 3 || arguments[0] != "authorization", arguments.count == 2 || ["prescription", "authorization"].contains(arguments[0])
else {
    FileHandle.standardError.write(Data("usage: healthkitport-seeds batches|monitor|prescription|authorization|steps EXPORT-OR-STORE [POLICY]\n".utf8))
    exit(64)
}
let input = URL(fileURLWithPath: arguments[1])
let policy = arguments.count == 3 ? URL(fileURLWithPath: arguments[2]) : nil

// The changed line. On a phone: `let store = HKHealthStore()`.
let store = try HKHealthStore(opening: input, policy: policy, presenter: HKTerminalAuthorizationPresenter())

switch arguments[0] {
case "batches":
    _ = try await readStepsInBatches(store: store)
case "monitor":
    let anchor = try await readStepsInBatches(store: store)
    let monitor = StepMonitor()
    monitor.startMonitoring(store: store, from: anchor)
    try await monitor.updateTask?.value
case "prescription":
    await readNewestPrescription(store: store)
    if policy != nil {
        await requestPrescriptionAccess(store: store)
        await readNewestPrescription(store: store)
    }
case "authorization":
    try await AuthorizationArticle(input: input, policy: policy).run()
default:
    try await printDailySteps(store: store)
}
