package dev.gpulint.spec;

import java.util.ArrayList;
import java.util.List;

/**
 * How DeepSpeed's PipelineModule deals L transformer blocks over pp stages that pp does not divide (gpt-neox's default
 * partition method "type:transformer|mlp", deepspeed/runtime/utils.py partition_balanced): no stage holds more than ⌈L/pp⌉,
 * priced as L mod pp stages of ⌈L/pp⌉ first, then ⌊L/pp⌋ (which stages hold the extra block depends on DeepSpeed's version;
 * bind/adapt/PipePartition says so in the plan's assumptions). One home for the split: the binder's for the job as written,
 * the plan search's for its candidates.
 */
public final class DeepSpeedSplit {
    private DeepSpeedSplit() {}

    /** The most pipeline stages whose split is written out stage by stage (more: priced as the average, said). */
    public static final long MAX_STAGES = 4096;

    /** Each stage's transformer blocks, or null when L or pp is below 1, pp is above {@link #MAX_STAGES}, or pp divides L. */
    public static List<Long> stages(long layers, long pp) {
        if (layers < 1 || pp < 1 || pp > MAX_STAGES || layers % pp == 0) return null;
        long floor = layers / pp, busier = layers % pp;
        List<Long> out = new ArrayList<>((int) pp);
        for (long i = 0; i < pp; i++) out.add(i < busier ? floor + 1 : floor);
        return List.copyOf(out);
    }
}
