import Foundation
import HealthKitPort

/// Seeds 000 and 002, "query for any samples that it already has permission to read", as Apple
/// wrote it; the last line prints what it found.
func readNewestPrescription(store: HKHealthStore) async {
    // Read the newest prescription from the HealthKit store.
    let queryDescriptor = HKSampleQueryDescriptor(predicates: [.visionPrescription()],
                                                  sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)],
                                                  limit: 1)

    let prescription: HKVisionPrescription

    do {
        guard let result = try await queryDescriptor.result(for: store).first else {
            print("*** No prescription found. ***")
            return
        }

        prescription = result
    } catch {
        // Handle the error here.
        fatalError("*** An error occurred while reading the most recent vision prescriptions: \(error.localizedDescription) ***")
    }

    print("newest prescription: \(prescription.uuid.uuidString) issued \(ISO8601DateFormatter().string(from: prescription.dateIssued))")
}
