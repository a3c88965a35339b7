import HealthModel

/// Health Connect's nutrition record (one food or meal: its energy and nutrients, its meal
/// type and its name, in `nutrition_record_table`) as HealthKit keeps a food: a
/// `HKCorrelationTypeIdentifierFood` holding one dietary sample per nutrient the record has,
/// each listed beside it as Apple's exports list a correlation's members.
///
/// Health Connect stores energy in small calories and every nutrient in grams
/// (`NutritionRecordInternal` in AOSP: `Energy.fromCalories`, `Mass.fromGrams`); each sample is
/// written in the unit Apple's exports write its type in (the Health app's own: kcal; g for the
/// macronutrients, mg or mcg for the vitamins and minerals, as HealthKitOnFHIR's table, which
/// healthport's FHIR writer follows, has them). Four of Health Connect's nutrients have no
/// HealthKit type (unsaturated and trans fat, energy from fat, folic acid): they are members of
/// types of their own (`HealthConnectDietary…`).
///
/// A nutrient the app did not set is stored as Java's `Double.MIN_VALUE` (AOSP's
/// `DEFAULT_DOUBLE`, `NotSet`: the record's fields start at it and are written whole), or NULL;
/// neither is a sample. A real 0 is one.
enum Nutrition {
    /// A nutrient column and what it becomes.
    struct Nutrient: Sendable {
        let column: String
        let typeIdentifier: String
        /// The unit written.
        let unit: String
        /// From the stored unit (cal or g) to `unit`.
        let factor: Double
    }

    /// Every nutrient column, in the order the reader selects them (one after another, from the
    /// first: `TableReader` reads them by their place) and the samples are listed:
    /// energy first (HealthKit asks a food to have it), then the macronutrients, the minerals
    /// and the vitamins.
    static let nutrients: [Nutrient] = {
        func dietary(_ column: String, _ name: String, _ unit: String) -> Nutrient {
            Nutrient(column: column, typeIdentifier: "HKQuantityTypeIdentifierDietary" + name, unit: unit, factor: grams[unit] ?? 1)
        }
        func own(_ column: String, _ identifier: String, _ unit: String) -> Nutrient {
            Nutrient(column: column, typeIdentifier: identifier, unit: unit, factor: grams[unit] ?? 1)
        }
        return [
            // Small calories to kcal.
            Nutrient(column: "energy", typeIdentifier: "HKQuantityTypeIdentifierDietaryEnergyConsumed", unit: "kcal", factor: 0.001),
            Nutrient(column: "energy_from_fat", typeIdentifier: HealthConnectTypes.dietaryEnergyFromFat, unit: "kcal", factor: 0.001),
            dietary("protein", "Protein", "g"),
            dietary("total_carbohydrate", "Carbohydrates", "g"),
            dietary("dietary_fiber", "Fiber", "g"),
            dietary("sugar", "Sugar", "g"),
            dietary("total_fat", "FatTotal", "g"),
            dietary("saturated_fat", "FatSaturated", "g"),
            own("unsaturated_fat", HealthConnectTypes.dietaryFatUnsaturated, "g"),
            dietary("monounsaturated_fat", "FatMonounsaturated", "g"),
            dietary("polyunsaturated_fat", "FatPolyunsaturated", "g"),
            own("trans_fat", HealthConnectTypes.dietaryFatTrans, "g"),
            dietary("cholesterol", "Cholesterol", "mg"),
            dietary("sodium", "Sodium", "mg"),
            dietary("potassium", "Potassium", "mg"),
            dietary("chloride", "Chloride", "mg"),
            dietary("calcium", "Calcium", "mg"),
            dietary("phosphorus", "Phosphorus", "mg"),
            dietary("magnesium", "Magnesium", "mg"),
            dietary("iron", "Iron", "mg"),
            dietary("zinc", "Zinc", "mg"),
            dietary("manganese", "Manganese", "mg"),
            dietary("copper", "Copper", "mcg"),
            dietary("iodine", "Iodine", "mcg"),
            dietary("selenium", "Selenium", "mcg"),
            dietary("chromium", "Chromium", "mcg"),
            dietary("molybdenum", "Molybdenum", "mcg"),
            dietary("vitamin_a", "VitaminA", "mcg"),
            dietary("vitamin_b6", "VitaminB6", "mg"),
            dietary("vitamin_b12", "VitaminB12", "mcg"),
            dietary("vitamin_c", "VitaminC", "mg"),
            dietary("vitamin_d", "VitaminD", "mcg"),
            dietary("vitamin_e", "VitaminE", "mg"),
            dietary("vitamin_k", "VitaminK", "mcg"),
            dietary("thiamin", "Thiamin", "mg"),
            dietary("riboflavin", "Riboflavin", "mg"),
            dietary("niacin", "Niacin", "mg"),
            dietary("pantothenic_acid", "PantothenicAcid", "mg"),
            dietary("biotin", "Biotin", "mcg"),
            dietary("folate", "Folate", "mcg"),
            own("folic_acid", HealthConnectTypes.dietaryFolicAcid, "mcg"),
            dietary("caffeine", "Caffeine", "mg"),
        ]
    }()

    /// A gram in each unit a nutrient is written in.
    private static let grams: [String: Double] = ["g": 1, "mg": 1_000, "mcg": 1_000_000]

    /// The columns the reader selects after every record's: the nutrients, then the meal's
    /// type and name.
    static let columns: [String] = nutrients.map(\.column) + ["meal_type", "meal_name"]

    /// Every type a nutrition record becomes: the food and its members' types.
    static let producedTypes: Set<String> = Set(nutrients.map(\.typeIdentifier) + [typeIdentifier])

    static let typeIdentifier = "HKCorrelationTypeIdentifierFood"

    /// A stored nutrient's sample value, or `nil` when it was not set (`NotSet`).
    static func amount(_ stored: Double, of nutrient: Nutrient) -> Double? {
        NotSet.filtered(stored).map { $0 * nutrient.factor }
    }

    /// The meal's metadata, on the food and on each of its samples (a member read alone, by
    /// `query --type DietaryProtein`, still says which meal it was): its name as HealthKit's
    /// `HKFoodType`, the food's name in HealthKit, which is free text the person wrote and which
    /// de-identification removes as it removes every text value; its type's code (0 unknown,
    /// 1 breakfast, 2 lunch, 3 dinner, 4 snack; `MealType` in AOSP) in
    /// `HealthConnectMealType`, since HealthKit has no meal for a food.
    static func metadata(mealType: Int64?, name: String?) -> [MetadataEntry] {
        var entries: [MetadataEntry] = []
        if let name, !name.isEmpty { entries.append(MetadataEntry(key: "HKFoodType", value: .string(name))) }
        if let mealType { entries.append(MetadataEntry(key: HealthConnectMetadataKeys.mealType, value: .string(String(mealType)))) }
        return entries
    }
}
