package dev.gpulint.derive.evid;

import dev.gpulint.read.evidence.Evidence;

/**
 * A capture kept whole for `gpulint diagnose` (docs/diagnose.md), with the node group it belongs to: the nvidia-smi
 * table (its utilisation column), a training log's steps, GPU telemetry samples. No rule matches it; the EVID rules
 * judge the other captures through their own facts.
 *
 * @param evidence  the record as read
 * @param linked    it belongs to a node group (configuration evidence:, or the one matching node group)
 * @param cluster   that cluster; "" when not linked
 * @param nodeGroup that node group; "" when not linked
 */
public record Captured(Evidence evidence, boolean linked, String cluster, String nodeGroup) {

    /** The kinds kept whole: what diagnose reads beyond the EVID facts. */
    static boolean kept(Evidence e) {
        return e instanceof Evidence.SmiTable || e instanceof Evidence.TrainingLog || e instanceof Evidence.GpuSamples;
    }

    /** The stable name of what it is about. */
    public String identity() { return "captured:" + evidence.file() + "/" + evidence.kind().name(); }
}
