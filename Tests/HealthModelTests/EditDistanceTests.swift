import Testing

@testable import HealthModel

/// The distance behind "did you mean …?", for type names and options.
@Suite struct EditDistanceTests {
    static func letters(_ word: String) -> [Character] { Array(word) }

    /// Worked by hand: kitten → sitten (k/s) → sittin (e/i) → sitting (+g) is three edits, and
    /// no two do; a word from nothing is its length; a word from itself is none.
    @Test func theDistanceIsTheFewestEdits() {
        #expect(EditDistance.between(Self.letters("kitten"), Self.letters("sitting")) == 3)
        #expect(EditDistance.between(Self.letters(""), Self.letters("steps")) == 5)
        #expect(EditDistance.between(Self.letters("steps"), Self.letters("steps")) == 0)
        // weigth → weight: two substitutions (a swap is not one edit here).
        #expect(EditDistance.between(Self.letters("weigth"), Self.letters("weight")) == 2)
    }

    /// `within` gives the distance up to its limit and nothing past it, and decides from the
    /// lengths alone when they differ by more (a kilobyte-long name is not compared letter by
    /// letter with each of several hundred types).
    @Test func withinStopsAtItsLimit() {
        #expect(EditDistance.within(3, Self.letters("kitten"), Self.letters("sitting")) == 3)
        #expect(EditDistance.within(2, Self.letters("kitten"), Self.letters("sitting")) == nil)
        #expect(EditDistance.within(2, Self.letters("steps"), Self.letters("stepcount")) == nil)
        let long = Array(repeating: Character("x"), count: 100_000)
        #expect(EditDistance.within(25_000, long, Self.letters("stepcount")) == nil)
    }
}
