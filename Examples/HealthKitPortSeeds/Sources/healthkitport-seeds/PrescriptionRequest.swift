import HealthKitPort

/// Seed 002, `requestPerObjectReadAuthorization(for:predicate:)`, as Apple wrote it: the sheet
/// offers each vision prescription, every time, and a cancel arrives as
/// `HKError.errorUserCanceled`.
func requestPrescriptionAccess(store: HKHealthStore) async {
    // Request authorization to read vision prescriptions.
    do {
        try await store.requestPerObjectReadAuthorization(for: .visionPrescriptionType(),
                                                          predicate: nil)
    } catch HKError.errorUserCanceled {
        // Handle the user canceling the authorization request.
        print("*** The user canceled the authorization request. ***")
        return
    } catch {
        // Handle the error here.
        fatalError("*** An error occurred while requesting permission to read vision prescriptions: \(error.localizedDescription) ***")
    }
}
