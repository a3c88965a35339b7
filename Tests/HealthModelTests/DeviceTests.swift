import Testing
import HealthModel

@Suite struct DeviceTests {
    @Test func parsesFieldsWithCommasAndSpaces() {
        let device = Device.parse(description: "<<HKDevice: 0x3006bbbb0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch7,2, software:10.2, creation date:2024-02-11 10:46:10 +0000>")
        #expect(device.name == "Apple Watch")
        #expect(device.manufacturer == "Apple Inc.")
        #expect(device.model == "Watch")
        #expect(device.hardwareVersion == "Watch7,2")
        #expect(device.softwareVersion == "10.2")
        #expect(device.creationDate == "2024-02-11 10:46:10 +0000")
        #expect(device.unparsedDescription == nil)
    }

    @Test func theAddressIsNotPartOfTheDevice() {
        let a = Device.parse(description: "<<HKDevice: 0x282a45810>, name:Apple Watch, manufacturer:Apple, model:Watch, hardware:Watch2,4, software:4.3.1>")
        let b = Device.parse(description: "<<HKDevice: 0x1111>, name:Apple Watch, manufacturer:Apple, model:Watch, hardware:Watch2,4, software:4.3.1>")
        #expect(a == b)
    }

    @Test func keepsThirdPartyDescriptionsWhole() {
        let device = Device.parse(description: "Dummy device")
        #expect(device.unparsedDescription == "Dummy device")
        #expect(device.name == nil)
    }
}
