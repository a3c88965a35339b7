import HealthConnect
import HealthModel
import HealthTestSupport
import Testing

/// The fixture's two meals (`make-fixture.py`) as HealthKit's foods: a food correlation per
/// record, after a dietary sample per nutrient set, in the units Apple's exports write (kcal,
/// g, mg, mcg), converted by hand below from what AOSP stores (small calories, grams).
@Suite struct HealthConnectNutritionTests {
    /// The members then the food, as the reader lists them, for one record's uuid; `nil` when
    /// that uuid is no food.
    static func food(_ objects: [HealthObject], uuid: String) -> (members: [QuantitySample], food: Correlation)? {
        guard let id = ObjectUUID(uuidString: uuid), let index = objects.firstIndex(where: { $0.uuid == id }),
            case .correlation(let food) = objects[index]
        else { return nil }
        let members = objects[..<index].compactMap { object -> QuantitySample? in
            guard case .quantitySample(let sample) = object, food.objects.contains(where: { $0.sample.uuid == sample.sample.uuid }) else {
                return nil
            }
            return sample
        }
        return (members, food)
    }

    static func close(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) < 1e-9 } ?? false }

    /// The lunch (`meal-1`, uuid5 of its name): 420,000 cal is 420 kcal; 21.5 g protein, 60 g
    /// carbohydrates, 12.5 g fibre, 6 g sugar, 9.25 g fat, 1.5 g saturated; 0.25 g trans fat, a
    /// type of Health Connect's own; cholesterol a real 0 (0 mg); 0.85 g sodium is 850 mg,
    /// 0.9 g potassium 900 mg, 0.0065 g iron 6.5 mg, 0.012 g vitamin C 12 mg; 0.00015 g vitamin
    /// A is 150 mcg and 0.00036 g folate 360 mcg. Zinc, at AOSP's "not set" (Double.MIN_VALUE),
    /// and the NULL columns are no samples: 15 members.
    @Test func theLunchIsAFoodWithItsNutrients() throws {
        let fixture = try HealthConnectFixture.make()
        let objects = try HealthConnectReaderTests.read(fixture.database).objects
        let (members, food) = try #require(Self.food(objects, uuid: "B60EAB0B-6E79-59F1-B6BB-781E70991842"))
        #expect(food.sample.sampleType == ObjectType(identifier: "HKCorrelationTypeIdentifierFood", kind: .correlation))
        #expect(food.objects.count == 15)
        #expect(members.count == 15)
        let expected: [(String, Double, String)] = [
            ("HKQuantityTypeIdentifierDietaryEnergyConsumed", 420, "kcal"),
            ("HKQuantityTypeIdentifierDietaryProtein", 21.5, "g"),
            ("HKQuantityTypeIdentifierDietaryCarbohydrates", 60, "g"),
            ("HKQuantityTypeIdentifierDietaryFiber", 12.5, "g"),
            ("HKQuantityTypeIdentifierDietarySugar", 6, "g"),
            ("HKQuantityTypeIdentifierDietaryFatTotal", 9.25, "g"),
            ("HKQuantityTypeIdentifierDietaryFatSaturated", 1.5, "g"),
            ("HealthConnectDietaryFatTrans", 0.25, "g"),
            ("HKQuantityTypeIdentifierDietaryCholesterol", 0, "mg"),
            ("HKQuantityTypeIdentifierDietarySodium", 850, "mg"),
            ("HKQuantityTypeIdentifierDietaryPotassium", 900, "mg"),
            ("HKQuantityTypeIdentifierDietaryIron", 6.5, "mg"),
            ("HKQuantityTypeIdentifierDietaryVitaminA", 150, "mcg"),
            ("HKQuantityTypeIdentifierDietaryVitaminC", 12, "mg"),
            ("HKQuantityTypeIdentifierDietaryFolate", 360, "mcg"),
        ]
        #expect(members.map(\.sample.sampleType.identifier) == expected.map(\.0))
        for (member, (type, value, unit)) in zip(members, expected) {
            #expect(Self.close(member.quantity.value.value, value), "\(type): \(member.quantity.value.value)")
            #expect(member.quantity.unit == unit, "\(type)")
        }
        // The meal's name is HealthKit's food type, its type (2, lunch) Health Connect's code,
        // on the food and every member; the food spans the record, 12:30–12:50 at +01:00.
        for sample in [food.sample] + members.map(\.sample) {
            #expect(sample.metadata["HKFoodType"] == .string("Lentil soup with rye bread"))
            #expect(sample.metadata["HealthConnectMealType"] == .string("2"))
            #expect(sample.metadata["HKWasUserEntered"] == .number(ExportNumber(1)))
        }
        // 2026-01-05 12:30 at +01:00 is 11:30 UTC: 1,767,571,200 + 41,400 s; 20 minutes later.
        #expect(food.sample.startDate == ExportTimestamp(secondsSince1970: 1_767_612_600, utcOffsetSeconds: 3600))
        #expect(food.sample.endDate.secondsSince1970 == 1_767_613_800)
        #expect(Set(members.map(\.sample.uuid)).count == 15 && !members.contains { $0.sample.uuid == food.sample.uuid })
    }

    /// The espresso (`meal-2`), written as AOSP writes a record with two fields set (every other
    /// nutrient at Double.MIN_VALUE): 2,000 cal is 2 kcal, 0.095 g caffeine is 95 mg; two
    /// members, nothing else.
    @Test func unsetNutrientsAreNoSamples() throws {
        let fixture = try HealthConnectFixture.make()
        let objects = try HealthConnectReaderTests.read(fixture.database).objects
        let (members, food) = try #require(Self.food(objects, uuid: "69757861-E794-5770-A699-BE60E38A2184"))
        #expect(members.map(\.sample.sampleType.identifier) == ["HKQuantityTypeIdentifierDietaryEnergyConsumed", "HKQuantityTypeIdentifierDietaryCaffeine"])
        #expect(Self.close(members.first?.quantity.value.value, 2))
        #expect(Self.close(members.last?.quantity.value.value, 95) && members.last?.quantity.unit == "mg")
        #expect(food.sample.metadata["HKFoodType"] == .string("Espresso"))
        #expect(food.sample.metadata["HealthConnectMealType"] == .string("1"))
    }

    /// A nutrient that is text is refused with its place; a meal name longer than the limit is
    /// refused, not held.
    @Test func damagedNutrientsAndLongNames() throws {
        let fixture = try HealthConnectFixture.make()
        let text = try HealthConnectFixture.altered(fixture.database, sql: "UPDATE nutrition_record_table SET protein = 'lots' WHERE row_id = 1;")
        let error = #expect(throws: HealthConnectError.self) { try HealthConnectReaderTests.read(text) }
        #expect(error?.description == "nutrition_record_table row 1, column protein: not a number")

        let long = try HealthConnectFixture.altered(fixture.database, sql: "UPDATE nutrition_record_table SET meal_name = hex(zeroblob(40000)) WHERE row_id = 2;")
        let tooLong = #expect(throws: HealthConnectError.self) { try HealthConnectReaderTests.read(long) }
        #expect(tooLong?.code == .limitExceeded)
        #expect(tooLong?.table == "nutrition_record_table" && tooLong?.row == 2 && tooLong?.column == "meal_name")
    }
}
