package dev.gpulint.facts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** MEM002's condition reads {@code statesFit}: it must say what {@code statesShare <= 1} said, the edge and no capacity too. */
class StageMemoryFactTest {
    private static StageMemoryFact fact(double weights, double gradients, double optimizer, double capacity) {
        return new StageMemoryFact("j", "c.yaml", "H100-SXM5-80GB", () -> "tp 8, pp 2, dp 1", "none", 0, 2,
                weights, gradients, optimizer, 5e9, capacity, null);
    }

    @Test
    void statesFitIsTheStatesShareAtMostOne() {
        double cap = 85.9e9;
        StageMemoryFact[] facts = {fact(10e9, 20e9, 50e9, cap), fact(10e9, 20e9, 56e9, cap), fact(10e9, 20e9, 55.9e9, cap),
                fact(10e9, 20e9, 60e9, cap), fact(10e9, 20e9, 60e9, 0)};
        boolean[] expected = {true, false, true, false, true};
        for (int i = 0; i < facts.length; i++) {
            assertEquals(facts[i].getStatesShare() <= 1, facts[i].isStatesFit(), "fact " + i);
            assertEquals(expected[i], facts[i].isStatesFit(), "fact " + i + ", share " + facts[i].getStatesShare());
        }
    }
}
