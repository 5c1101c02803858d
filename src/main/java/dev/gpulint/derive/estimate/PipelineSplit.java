package dev.gpulint.derive.estimate;

import dev.gpulint.spec.Located;
import dev.gpulint.spec.PipelineLayout;
import dev.gpulint.spec.Specs;

/**
 * How a job's transformer layers are split over its pipeline stages, as Megatron-Core's get_num_layers_to_build
 * builds them (megatron/core/transformer/transformer_block.py):
 * <ul>
 * <li>even: L/pp layers on every stage;
 * <li>the embedding and/or the loss counted as layers (--account-for-embedding/loss-in-pipeline-split):
 *     (L + e + l)/pp per stage, one fewer on the first stage for the embedding and on the last for the loss;
 * <li>uneven (--decoder-first/last-pipeline-num-layers, NeMo's num_layers_in_first/last_pipeline_stage, the native
 *     first_stage_layers/last_stage_layers): {@code first} layers on the first stage, {@code last} on the last, the
 *     rest shared evenly by the other stages. Megatron-Core asserts the two ways are not combined (PAR004).
 * <li>laid out stage by stage (Megatron's --pipeline-model-parallel-layout, {@link dev.gpulint.spec.PipelineLayout}):
 *     {@code stages} holds the transformer blocks (decoder and MTP layers) of each of the pp × vpp stages in Megatron's
 *     order, stage s on pipeline rank s mod pp; a rank holds the sum of its stages. torchtitan's split points
 *     (bind/adapt/TorchtitanPipeline) come the same way, their last stage as -1: the layers the other stages leave. The layout wins over the other ways
 *     (Megatron-Core builds it alone), and it holds only while pp is the one it was written for.
 * </ul>
 * A split Megatron-Core would refuse (PAR004 reports it) is still priced, with the other stages' share fractional.
 */
public record PipelineSplit(int first, int last, boolean embedding, boolean loss, java.util.List<Long> stages) {
    /** L/pp layers on every stage. */
    public static final PipelineSplit EVEN = new PipelineSplit(0, 0, false, false);

    public PipelineSplit {
        if (first < 0 || last < 0) throw new IllegalArgumentException("a stage's layers are at least 0: " + first + ", " + last);
        stages = stages == null ? java.util.List.of() : java.util.List.copyOf(stages);
        for (long n : stages) if (n < -1) throw new IllegalArgumentException("a stage's layers are at least 0 (-1: the rest): " + n);
    }

    /** A split not laid out stage by stage. */
    public PipelineSplit(int first, int last, boolean embedding, boolean loss) {
        this(first, last, embedding, loss, null);
    }

    /** The split a per-layer layout gives: {@code stages} blocks on each stage, in Megatron's order. */
    public static PipelineSplit laidOut(java.util.List<Long> stages) {
        return new PipelineSplit(0, 0, false, false, stages);
    }

    /** The layers are laid out stage by stage, and the layout fits {@code pp} ranks. */
    public boolean laidOut(int pp) { return !stages.isEmpty() && pp >= 1 && stages.size() % pp == 0; }

    /** The split a job's parallelism writes (EVEN when it writes none). */
    public static PipelineSplit of(Specs.Parallelism p) {
        if (p == null) return EVEN;
        if (p.stageLayers() != null && p.stageLayers().value() != null && !p.stageLayers().value().isEmpty()) {
            return laidOut(p.stageLayers().value());
        }
        PipelineSplit s = new PipelineSplit(whole(p.firstStageLayers()), whole(p.lastStageLayers()), p.embeddingInSplit() != null,
                p.lossInSplit() != null);
        return s.equals(EVEN) ? EVEN : s;
    }

    /** The first or the last stage is sized by hand. */
    public boolean uneven() { return first > 0 || last > 0; }

    /** Transformer layers on stage {@code i} of {@code pp} for a model of {@code layers} layers. */
    public double layers(long layers, int pp, int i) {
        if (laidOut(pp)) {
            // an entry of -1 (torchtitan's last stage) takes the layers the other stages leave
            long known = 0, rest = 0;
            for (long n : stages) if (n >= 0) known += n; else rest++;
            double n = 0;
            for (int s = i; s < stages.size(); s += pp) n += stages.get(s) >= 0 ? stages.get(s) : Math.max(0, layers - known) / (double) rest;
            return n;
        }
        if (pp <= 1) return layers;
        if (uneven()) {
            if (i == 0 && first > 0) return first;
            if (i == pp - 1 && last > 0) return last;
            int middle = pp - (first > 0 ? 1 : 0) - (last > 0 ? 1 : 0);
            return middle <= 0 ? 0 : Math.max(0, layers - first - last) / (double) middle;
        }
        double per = (layers + (embedding ? 1 : 0) + (loss ? 1 : 0)) / (double) pp;
        if (i == 0 && embedding) per -= 1;
        if (i == pp - 1 && loss) per -= 1;
        return Math.max(0, per);
    }

    /** "7 on the first stage, 7 on the last, 8 on each other": how the estimate's notes name the split. */
    public String describe(long layers, int pp) {
        if (equals(EVEN) || pp <= 1) return "";
        StringBuilder b = new StringBuilder();
        if (laidOut(pp)) {
            // "5, 4 × 13, 2, 2 per stage (laid out layer by layer)": runs of equal stages folded
            double prev = -1;
            int run = 0;
            for (int i = 0; i <= pp; i++) {
                double n = i < pp ? layers(layers, pp, i) : -2;
                if (n == prev) { run++; continue; }
                if (run > 0) b.append(b.length() > 0 ? ", " : "").append(trim(prev)).append(run > 1 ? " × " + run : "");
                prev = n;
                run = 1;
            }
            return b.append(" on the ranks in turn (").append(stages.size()).append(" stages laid out layer by layer)").toString();
        }
        if (uneven()) {
            if (first > 0) b.append(first).append(" on the first stage, ");
            if (last > 0) b.append(last).append(" on the last, ");
            b.append(trim(layers(layers, pp, first > 0 ? 1 : 0))).append(" on each other (uneven split)");
        } else {
            b.append(trim(layers(layers, pp, pp > 2 ? 1 : 0))).append(" per stage");
            if (embedding) b.append(", ").append(trim(layers(layers, pp, 0))).append(" on the first (the embedding counted as a layer)");
            if (loss) b.append(", ").append(trim(layers(layers, pp, pp - 1))).append(" on the last (the loss counted as a layer)");
        }
        return b.toString();
    }

    /**
     * The native manifest's {@code parallelism.pipeline_layout} in the plan's assumptions, as the Megatron adapter words its
     * {@code --pipeline-model-parallel-layout} (DraftBounds, into Origin#unpriced): a hybrid pattern's '|' segments priced in
     * place of a layout that splits the decoder otherwise ({@link PipelineLayout#besideSegments}), and the MTP layers or the
     * loss on several stages, with which Megatron-LM build runs them and how they are priced
     * ({@link PipelineLayout#mtpSplitNote}, {@link PipelineLayout#lossSplitNote}). Nothing without a native layout.
     */
    static void describeLayout(Specs.Job j, java.util.List<String> as) {
        Specs.Parallelism p = j.parallelism();
        if (p == null || p.layout() == null || p.layout().value() == null) return;
        PipelineLayout layout = p.layout().value();
        String key = "parallelism.pipeline_layout";
        boolean hybrid = j.model() != null && j.model().hybrid() != null;
        // the segments are the split priced when the stages priced are not the layout's blocks (SpecBuilder#pipelineLayout)
        if (hybrid && p.stageLayers() != null && !p.stageLayers().value().equals(layout.blocks())) {
            String beside = layout.besideSegments(key, "model.hybrid.pattern", p.stageLayers().value());
            if (beside != null) as.add(beside);
        }
        // a hybrid's stages priced from its pattern's segments (SpecBuilder: the segments whenever it has them, and they count
        // no m, so they differ from the layout's blocks wherever m stands)
        String mtp = layout.mtpSplitNote(key, hybrid && p.stageLayers() != null && !p.stageLayers().value().equals(layout.blocks()));
        if (mtp != null) as.add(mtp);
        boolean priced = j.model() != null && j.model().mtp() != null && j.model().mtp().lossStages() != null;
        String loss = layout.lossSplitNote(key, priced ? PipelineLayout.LOSSES_PRICED
                : hybrid ? PipelineLayout.HYBRID_LOSSES : PipelineLayout.LOSSES_ON_SEGMENTS);
        if (loss != null) as.add(loss);
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(java.util.Locale.ROOT, "%.2f", v);
    }

    private static int whole(Located<Long> l) {
        return l == null || l.value() == null || l.value() < 1 || l.value() > Integer.MAX_VALUE ? 0 : (int) (long) l.value();
    }
}
