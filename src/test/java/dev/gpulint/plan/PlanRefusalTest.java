package dev.gpulint.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.spec.Format;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Who stops a job whose global batch is no whole number of micro batch × dp ({@link Planner#refusal}), each framework
 * by the check it runs at start-up, and the size of the same layout where the batch divides ({@link Planner#dividingSize}).
 */
class PlanRefusalTest {

    private static final String STOPS = " stops it at start-up, before its first step, so it has no step to price (";

    /** Megatron-Core's calculator for the formats that run it (NeMo passes decrease_batch_size_if_needed=False). */
    @Test
    void theFormatsThatRunMegatronCoreNameItsCalculator() {
        for (Format f : List.of(Format.MEGATRON, Format.NEMO, Format.NEMO2_RECIPE, Format.MEGATRON_BRIDGE)) {
            String r = Planner.refusal(f);
            assertTrue(r.startsWith(f.display() + STOPS + "Megatron-Core's micro-batch calculator asserts global % (micro × dp) == 0"), r);
        }
    }

    /**
     * torchtitan's Trainer asserts global_batch_size % (local_batch_size × dp_degree) == 0 before it builds the model
     * (torchtitan/train.py at pytorch/torchtitan 000204a4): the plan names it, not "no framework".
     */
    @Test
    void torchtitanStopsItInItsTrainer() {
        String r = Planner.refusal(Format.TORCHTITAN);
        assertEquals("torchtitan" + STOPS + "its Trainer asserts global_batch_size % (local_batch_size × dp) == 0: torchtitan/train.py"
                + " at 000204a4)", r);
    }

    /**
     * gpt-neox derives and checks its batch when it reads its arguments (NeoXArgs.calculate_derived → check_batch_parameters,
     * megatron/neox_arguments/arguments.py at EleutherAI/gpt-neox 0097a39e), before deepspeed.initialize; DeepSpeed's own
     * configs stop in deepspeed.initialize (_batch_assertion).
     */
    @Test
    void gptNeoxStopsItWhenItReadsItsArgumentsDeepSpeedInInitialize() {
        String neox = Planner.refusal(Format.GPT_NEOX);
        assertTrue(neox.startsWith("gpt-neox" + STOPS + "NeoXArgs asserts train_batch_size == micro batch × gradient accumulation × dp"
                + " world size"), neox);
        assertTrue(neox.endsWith("megatron/neox_arguments/arguments.py, calculate_derived → check_batch_parameters)"), neox);
        assertFalse(neox.contains("deepspeed.initialize"), neox);
        String ds = Planner.refusal(Format.DEEPSPEED);
        assertTrue(ds.startsWith("DeepSpeed" + STOPS + "deepspeed.initialize asserts"), ds);
        assertTrue(ds.endsWith("runtime/config.py, _batch_assertion)"), ds);
    }

    /** Formats whose framework the plan does not cite, and no format: only that such a step has no time. */
    @Test
    void otherFormatsNameNoFramework() {
        for (Format f : new Format[] {null, Format.ACCELERATE, Format.NATIVE, Format.NANOTRON}) {
            assertEquals("a step of no whole number of micro-batches per data-parallel rank has no time to price", Planner.refusal(f));
        }
    }

    /**
     * The largest dp below the layout's whose count is whole and that holds ep within dp × cp: global 12 over tp 2 × pp 2 ×
     * dp 8 with ep 4 skips dp 6 (6 % 4) for dp 4 (3 micro-batches, 16 GPUs); with cp 2, dp 6 holds ep 4 (6 × 2 % 4 == 0): 48
     * GPUs; a global batch below one micro batch has none.
     */
    @Test
    void theDividingSizeHoldsEpWithinDpTimesCp() {
        Layout ep4 = new Layout(2, 2, 8, 1, 4, 1, 1, 12, 0, true, Layout.Recompute.NONE, true);
        Layout fits = Planner.dividingSize(ep4);
        assertEquals(List.of(4, 3L, 16L), List.of(fits.dp(), fits.microBatches(), fits.gpus()));
        Layout cp2 = new Layout(2, 2, 8, 2, 4, 1, 1, 12, 0, true, Layout.Recompute.NONE, true);
        fits = Planner.dividingSize(cp2);
        assertEquals(List.of(6, 2L, 48L), List.of(fits.dp(), fits.microBatches(), fits.gpus()));
        assertNull(Planner.dividingSize(new Layout(2, 2, 8, 1, 1, 1, 2, 1, 0, true, Layout.Recompute.NONE, true)));
    }
}
