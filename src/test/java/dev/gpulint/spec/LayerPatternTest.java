package dev.gpulint.spec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Megatron's --moe-layer-freq as Megatron's argument parser reads it: an int N, or a list expression of 0s and 1s. */
class LayerPatternTest {

    private static String bad(String text, int layers) {
        return assertThrows(IllegalArgumentException.class, () -> LayerPattern.parse(text, layers)).getMessage();
    }

    @Test
    void anIntegerMakesEveryNthLayerMoeFromTheFirst() {
        assertArrayEquals(new boolean[] {true, false, true, false, true, false}, LayerPattern.parse("2", 6));
        assertEquals(6, LayerPattern.count(LayerPattern.parse("1", 6)));
        assertEquals(2, LayerPattern.count(LayerPattern.parse(" 4 ", 8)));
    }

    @Test
    void listExpressionsOfDeepSeekAndMegatronsHelp() {
        boolean[] v3 = LayerPattern.parse("([0]*3+[1]*58)", 61);
        assertEquals(61, v3.length);
        assertEquals(58, LayerPattern.count(v3));
        assertEquals(false, v3[2]);
        assertEquals(true, v3[3]);
        assertArrayEquals(new boolean[] {true, true, true, false, true, true, true, false, true, true, true, false},
                LayerPattern.parse("([1]*3+[0]*1)*3", 12));
        assertArrayEquals(new boolean[] {false, true, true}, LayerPattern.parse("'[0,1] + [1]'", 3));
        assertArrayEquals(new boolean[] {true, true, false}, LayerPattern.parse("\"2*[1]+[0]\"", 0), "quoted, N * list, length free");
        assertNull(LayerPattern.problem("([0]+[1]*23)"));
    }

    @Test
    void badPatternsSayWhatAndWhere() {
        assertEquals("unclosed '(' at character 14 of '([0]*3+[1]*58'; expected an integer N (every N-th layer is MoE) or a list of 0s"
                + " and 1s such as ([0]*3+[1]*58)", bad("([0]*3+[1]*58", 61));
        assertEquals("the pattern ends early at character 12 of '([0]*3+[1]*'; expected an integer N (every N-th layer is MoE) or a list"
                + " of 0s and 1s such as ([0]*3+[1]*58)", bad("([0]*3+[1]*", 61));
        assertEquals("the pattern gives 60 layers but the model has 61", bad("([0]*3+[1]*57)", 61));
        assertEquals("'0' must be at least 1 (every N-th layer is MoE)", bad("0", 4));
        assertEquals("the pattern is empty; expected an integer N (every N-th layer is MoE) or a list of 0s and 1s such as ([0]*3+[1]*58)",
                bad("  ", 4));
        assertEquals("layer entries are 0 (dense) or 1 (MoE), found 2 at character 2 of '[2]*4'; expected an integer N (every N-th layer"
                + " is MoE) or a list of 0s and 1s such as ([0]*3+[1]*58)", bad("[2]*4", 4));
        assertEquals("expected a number, found 'i' at character 2 of '[i for i in range(4)]'; expected an integer N (every N-th layer is MoE) or a list of 0s"
                + " and 1s such as ([0]*3+[1]*58)", bad("[i for i in range(4)]", 4));
    }

    @Test
    void hugeOrDeepPatternsAreRefusedWithoutBeingBuilt() {
        assertEquals("the pattern gives 100001 layers; at most 100000 are read", bad("[1]*999999999999", 0));
        assertEquals("the pattern gives 100001 layers; at most 100000 are read", bad("([1]*100000)*100000*100000", 0));
        assertEquals(0, LayerPattern.parse("[]*999999999", 0).length, "an empty list repeated builds nothing, at once");
        String deep = "(".repeat(200) + "[1]" + ")".repeat(200);
        assertEquals(true, bad(deep, 1).startsWith("the pattern nests more than 100 deep"));
        assertEquals(true, bad("[1]".repeat(5000), 0).startsWith("the pattern is 15000 characters long"));
    }
}
