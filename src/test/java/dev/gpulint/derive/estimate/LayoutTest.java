package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LayoutTest {
    private static Layout layout(int tp, int pp, int dp, int micro, long global) {
        return new Layout(tp, pp, dp, 1, 1, 1, micro, global, 0, false, Layout.Recompute.SELECTIVE, true);
    }

    @Test
    void gpusAreTheProductOfTpCpPpDp() {
        assertEquals(64, layout(8, 2, 4, 1, 128).gpus());
        assertEquals(128, layout(8, 2, 4, 1, 128).withSizes(8, 2, 4, 2, 1, 1).gpus());
    }

    @Test
    void microBatchesPerReplicaOrZeroWhenTheBatchDoesNotDivide() {
        assertEquals(32, layout(8, 2, 4, 1, 128).microBatches());
        assertEquals(16, layout(8, 2, 4, 2, 128).microBatches());
        assertEquals(0, layout(8, 2, 3, 1, 128).microBatches());
    }

    @Test
    void sizesNameOnlyWhatIsSet() {
        assertEquals("tp 8, pp 2, dp 4", layout(8, 2, 4, 1, 128).sizes());
        assertEquals("tp 4, pp 8, vpp 6, dp 4, cp 2, ep 2", layout(8, 2, 4, 1, 128).withSizes(4, 8, 4, 2, 2, 6).sizes());
        assertEquals("full", Layout.Recompute.FULL.id());
    }

    @Test
    void refusesSizesBelowOneAndStagesAboveThree() {
        assertThrows(IllegalArgumentException.class, () -> layout(0, 1, 1, 1, 1));
        assertThrows(IllegalArgumentException.class,
                () -> new Layout(1, 1, 1, 1, 1, 1, 1, 1, 4, false, Layout.Recompute.NONE, false));
    }
    /** Layout writes equals and hashCode out (the search's maps): every component takes part, as in a record's own. */
    @Test
    void equalsAndHashCodeReadEveryComponent() throws Exception {
        java.lang.reflect.RecordComponent[] parts = Layout.class.getRecordComponents();
        Class<?>[] types = java.util.Arrays.stream(parts).map(java.lang.reflect.RecordComponent::getType).toArray(Class<?>[]::new);
        java.lang.reflect.Constructor<Layout> canonical = Layout.class.getDeclaredConstructor(types);
        Object[] base = {2, 4, 8, 1, 1, 2, 1, 64L, 1, false, Layout.Recompute.SELECTIVE, true, PipelineSplit.EVEN, 0, 1, 0, 0};
        assertEquals(parts.length, base.length, "a new component of Layout needs a value here");
        Layout a = canonical.newInstance(base), same = canonical.newInstance(base.clone());
        assertEquals(a, same);
        assertEquals(a.hashCode(), same.hashCode());
        assertEquals(a, a.withSplit(new PipelineSplit(0, 0, false, false)));       // an equal split, not the same object
        assertEquals(a.hashCode(), a.withSplit(new PipelineSplit(0, 0, false, false)).hashCode());
        for (int i = 0; i < parts.length; i++) {
            Object[] other = base.clone();
            other[i] = switch (parts[i].getName()) {
                case "globalBatchSize" -> 128L;
                case "distributedOptimizer", "sequenceParallel" -> !(Boolean) base[i];
                case "recompute" -> Layout.Recompute.FULL;
                case "split" -> new PipelineSplit(1, 0, false, false);
                case "dp" -> 16;
                case "dpShard" -> 4;
                case "recomputeEvery" -> 2;
                case "zeroStage" -> 3;
                default -> (Integer) base[i] + 1;
            };
            Layout b = canonical.newInstance(other);
            org.junit.jupiter.api.Assertions.assertNotEquals(a, b, parts[i].getName());
            org.junit.jupiter.api.Assertions.assertNotEquals(a.hashCode(), b.hashCode(), parts[i].getName());
        }
    }

    /** torchtitan's local batch 4 of a global 64 over dp 8: two schedules (accumulation steps) of 4; else one of all 8. */
    @Test
    void aStepIsItsSchedules() {
        assertEquals(new Layout.Schedule(4, 2), Layout.schedule(64, 1, 8, 4));
        assertEquals(new Layout.Schedule(8, 1), Layout.schedule(64, 1, 8, 0));     // Megatron: one schedule per step
        assertEquals(new Layout.Schedule(8, 1), Layout.schedule(64, 1, 8, 3));     // 64 is no multiple of 3 × 8: one schedule
        assertEquals(new Layout.Schedule(0, 1), Layout.schedule(60, 1, 8, 0));
        Layout l = new Layout(1, 2, 8, 1, 1, 1, 1, 64, 0, false, Layout.Recompute.NONE, false, PipelineSplit.EVEN, 0, 1, 0, 4);
        assertEquals(8, l.microBatches());
        assertEquals(4, l.scheduleMicroBatches());
        assertEquals(2, l.schedules());
    }
}
