package dev.gpulint.spec;

import java.util.ArrayList;
import java.util.List;

/**
 * Megatron-Core's {@code --pipeline-model-parallel-layout}: which layers each pipeline stage builds, written as a string
 * of layer letters ({@code E} the embedding, {@code t} a transformer decoder layer, {@code m} a multi-token-prediction
 * layer, {@code L} the loss) with {@code |} between stages, {@code x*n} repeating one letter, {@code (…)*n} repeating a
 * group and commas only for the eye. {@code "Et*3|(tt|)*29,m|L"} is DeepSeek-V3 on pp 16 × vpp 2: 32 stages, the first
 * the embedding and three layers, 29 of two layers, one of the MTP layer and the last the loss
 * (megatron/core/transformer/pipeline_parallel_layer_layout.py, parse_str_to_list; docs: "Custom Pipeline Model
 * Parallel Layout").
 *
 * <p>The stages are in Megatron's order: stage s is pipeline rank s mod pp, virtual stage s ÷ pp (the layout's length
 * must be a multiple of pp; vpp is its length ÷ pp). Megatron unrolls one level of parentheses, so a group inside a
 * group is refused here as it fails there. The text is at most {@link #MAX_TEXT} characters and unrolls to at most
 * {@link #MAX_UNROLLED} letters: the length is counted before anything is built, so any text costs time linear in its
 * length.
 */
public final class PipelineLayout {
    /** The longest text read. */
    public static final int MAX_TEXT = 10_000;
    /** The most letters (layers and stage separators) a layout may unroll to. */
    public static final int MAX_UNROLLED = 100_000;

    /** One stage: its transformer layers, MTP layers, and whether it holds the embedding or the loss. */
    public record Stage(int decoder, int mtp, int embedding, int loss) {
        /** The transformer blocks the stage builds: its decoder layers and its MTP layers (each holds one). */
        public int blocks() { return decoder + mtp; }
    }

    /** A problem at a character of the text (0-based index into the text as written). */
    public static final class Problem extends IllegalArgumentException {
        private final int index;

        Problem(String message, int index) {
            super(message);
            this.index = index;
        }

        /** Where in the text as written: a 0-based character index. */
        public int index() { return index; }
    }

    private final List<Stage> stages;
    /** The embedding is the first letter, the loss the last; a decoder layer follows an MTP layer. */
    private final boolean first, last, mtpBeforeDecoder;
    /** The text read, without the quotes and blanks around it. */
    private final String text;

    private PipelineLayout(String text, List<Stage> stages, boolean first, boolean last, boolean mtpBeforeDecoder) {
        this.text = text;
        this.stages = List.copyOf(stages);
        this.first = first;
        this.last = last;
        this.mtpBeforeDecoder = mtpBeforeDecoder;
    }

    /** The text read, without the quotes and blanks around it (at most {@link #MAX_TEXT} characters). */
    public String text() { return text; }

    /** The transformer decoder layers (t) of each stage, in order. */
    public List<Long> decoder() { return stages.stream().map(s -> (long) s.decoder()).toList(); }

    /** The stages in Megatron's order (stage s on pipeline rank s mod pp). */
    public List<Stage> stages() { return stages; }

    /** The transformer decoder layers of the whole layout (Megatron asserts they are num_layers). */
    public long decoderLayers() { return stages.stream().mapToLong(Stage::decoder).sum(); }

    /** The MTP layers (m) the layout places. */
    public long mtpLayers() { return stages.stream().mapToLong(Stage::mtp).sum(); }

    /** The transformer blocks (decoder and MTP layers) of each stage, in order. */
    public List<Long> blocks() { return stages.stream().map(s -> (long) s.blocks()).toList(); }

    /**
     * Reads {@code text}. Quotes around it and surrounding blanks are dropped (a shell or YAML value may keep them).
     *
     * @throws Problem with a message for the person who wrote it and the character it is about
     */
    public static PipelineLayout parse(String text) {
        if (text == null) throw new Problem("no layout written", 0);
        int from = 0, to = text.length();
        while (from < to && Character.isWhitespace(text.charAt(from))) from++;
        while (to > from && Character.isWhitespace(text.charAt(to - 1))) to--;
        if (to - from >= 2 && (text.charAt(from) == '"' && text.charAt(to - 1) == '"' || text.charAt(from) == '\'' && text.charAt(to - 1) == '\'')) {
            from++;
            to--;
        }
        if (from >= to) throw new Problem("the layout is empty; " + EXPECTED, from);
        if (to - from > MAX_TEXT) throw new Problem("the layout is " + (to - from) + " characters long; at most " + MAX_TEXT + " are read", from);
        List<Piece> pieces = new ArrayList<>();
        long unrolled = 0;
        int i = from;
        while (i < to) {
            char c = text.charAt(i);
            if (c == ',') { i++; continue; }
            Piece p;
            if (c == '(') {
                int close = i + 1;
                while (close < to && text.charAt(close) != ')') {
                    if (text.charAt(close) == '(') throw new Problem("a group inside a group is not read (Megatron unrolls one level of parentheses)", close);
                    close++;
                }
                if (close >= to) throw new Problem("'(' opens a group that no ')' closes", i);
                List<Piece> inner = letters(text, i + 1, close);
                if (inner.isEmpty()) throw new Problem("the group '()' is empty", i);
                int end = close + 1;
                if (end >= to || text.charAt(end) != '*') throw new Problem("a group must be followed by *n, the times it repeats", i);
                int[] n = count(text, end + 1, to);
                p = new Piece(inner, n[0]);
                i = n[1];
            } else {
                int[] one = letter(text, i, to);
                p = new Piece(c, one[0]);
                i = one[1];
            }
            unrolled += p.length();
            if (unrolled > MAX_UNROLLED) throw new Problem("the layout unrolls to more than " + MAX_UNROLLED + " letters; at most that many are read", from);
            pieces.add(p);
        }
        Builder b = new Builder();
        for (Piece p : pieces) p.unroll(b);
        List<Stage> stages = b.done();
        return new PipelineLayout(text.substring(from, to), stages, b.firstLetter == 'E', b.lastLetter == 'L', b.mtpBeforeDecoder);
    }

    /**
     * Checks the layout against the job as Megatron-Core does (PipelineParallelLayerLayout.__init__ and
     * validate_layer_layout): its stages a multiple of {@code pp}, the embedding first and once, the loss last, {@code layers}
     * transformer layers (0: not known, not checked) before any MTP layer, each MTP layer in a rank's last virtual chunk.
     * <p>
     * Versions differ and the union is accepted (a layout one of them runs is not refused): Megatron-Core's main branch
     * (github.com/NVIDIA/Megatron-LM, megatron/core/transformer/pipeline_parallel_layer_layout.py at
     * 00caa53af30912914981c86f39db123961678bbd) asserts the one rank holding m holds all mtp_num_layers ("All of the MTP layers
     * must be in the same one virtual pipeline stage") and one loss ("Loss must be specified exactly once"); the older one
     * gpulint was first built to (b1030e9ddf05d9b3de7a48dcc8e0e8ee7ed31af5) refused any m ("MTP layer is not supported for
     * flexible pipeline layout"). The newer mtp_split and mtp_loss_split (NVIDIA/Megatron-LM pull requests #5329 and #5318,
     * github.com/shifangx/Megatron-LM at 71ffeae2deb4036b9802c47b26bd78216f5ed1d9, the same file) let m stand on several
     * ranks ("MTP layers are distributed across multiple consecutive PP ranks, each holding ≥1 layer in any combination") and
     * the loss on several slots when there are 1 + mtp_num_layers of them ("When using mtp_loss_split, the number of loss slots
     * ... must equal 1 + mtp_num_layers"). So m may stand on several stages, and L {@code 1 + D} times ({@link #mtpSplit},
     * {@link #lossSplit} say when the newer rule was applied).
     *
     * @param mtp the job's MTP layers (--mtp-num-layers and what each format writes for it), or -1 where not written: the
     *            layout's m letters must match it (validate_layer_layout: "Number of mtp layers in layout must match
     *            mtp_num_layers")
     * @return what is wrong, or null
     */
    public String problem(long pp, long layers, long mtp) {
        if (pp > 0 && stages.size() % pp != 0) {
            return "it has " + stages.size() + " stage" + (stages.size() == 1 ? "" : "s") + ", not a multiple of the pipeline size "
                    + pp + " (Megatron-Core: \"pipeline_model_parallel_layout must be divisible by pipeline_model_parallel_size\")";
        }
        long embeddings = stages.stream().mapToLong(Stage::embedding).sum(), losses = losses();
        if (embeddings != 1 || losses < 1) {
            return "it names the embedding (E) " + embeddings + " time" + (embeddings == 1 ? "" : "s") + " and the loss (L) " + losses
                    + " time" + (losses == 1 ? "" : "s") + "; Megatron-Core requires the embedding exactly once and the loss at least once";
        }
        if (!first || !last) {
            return "Megatron-Core requires the embedding (E) to be its first layer and the loss (L) its last";
        }
        long d = mtp >= 0 ? mtp : mtpLayers();
        if (mtp >= 0 && mtpLayers() != mtp) {
            return "it places " + mtpLayers() + " MTP layer" + (mtpLayers() == 1 ? "" : "s") + " (m) but the job has " + mtp
                    + " (Megatron-Core's validate_layer_layout: \"Number of mtp layers in layout must match mtp_num_layers\")";
        }
        if (losses > 1 && losses != 1 + d) {
            return "it names the loss (L) " + losses + " times; Megatron-Core reads several loss slots only as the split MTP loss, one slot"
                    + " per hidden-state chunk, 1 + " + d + " MTP layer" + (d == 1 ? "" : "s") + " = " + (1 + d) + " (validate_layer_layout,"
                    + " NVIDIA/Megatron-LM pull request #5318: \"When using mtp_loss_split, the number of loss slots (" + losses + ") must equal"
                    + " 1 + mtp_num_layers (" + (1 + d) + ")\"); without it: \"Loss must be specified exactly once\"";
        }
        if (mtpBeforeDecoder) return "a decoder layer (t) follows an MTP layer (m); Megatron-Core requires decoder layers before MTP layers";
        // validate_layer_layout: "Currently we restrict that the MTP should be always in the last virtual pipeline stage of that
        // rank" (pipeline_parallel_layer_layout.py at 00caa53af30912914981c86f39db123961678bbd; MultiTokenPredictionBlock asserts
        // is_vp_last_stage): in Megatron's order stage s is chunk s ÷ pp of rank s mod pp
        for (int s = 0; pp > 0 && s < stages.size() - pp; s++) {
            if (stages.get(s).mtp() > 0) {
                return "it places the MTP layers (m) on stage " + (s + 1) + " of " + stages.size() + ", virtual chunk " + (s / pp) + " of pipeline rank " + (s % pp)
                        + "'s " + (stages.size() / pp) + "; Megatron-Core builds MTP layers only in a rank's last virtual chunk"
                        + " (validate_layer_layout: \"Currently we restrict that the MTP should be always in the last virtual pipeline"
                        + " stage of that rank\")";
            }
        }
        if (layers > 0 && decoderLayers() != layers) {
            return "it places " + decoderLayers() + " transformer layers (t) but the model has " + layers
                    + " (Megatron-Core asserts the layout's decoder layers match num_layers)";
        }
        return null;
    }

    /** {@link #problem(long, long, long)} where the job's MTP layers are not written. */
    public String problem(long pp, long layers) {
        return problem(pp, layers, -1);
    }

    /** The loss slots (L) the layout names. */
    public long losses() { return stages.stream().mapToLong(Stage::loss).sum(); }

    /**
     * The MTP layers stand on more than one stage: Megatron-LM's mtp_split (pull request #5329), which its main branch at
     * 00caa53af30912914981c86f39db123961678bbd refuses ("All of the MTP layers must be in the same one virtual pipeline stage").
     */
    public boolean mtpSplit() { return stages.stream().filter(st -> st.mtp() > 0).count() > 1; }

    /**
     * The loss slots stand on more than one stage: Megatron-LM's mtp_loss_split (pull request #5318; its main branch asserts
     * "Loss must be specified exactly once").
     */
    public boolean lossSplit() { return stages.stream().filter(st -> st.loss() > 0).count() > 1; }

    /**
     * Why this layout cannot stand beside a hybrid pattern's '|' segments ({@code segments}, each stage's decoder layers) that
     * count another number of stages; null when they count as many, or there are none. Megatron-Core takes the virtual stages
     * from the layout (its stages ÷ pp) and HybridModel builds each stage's layers from the segments (select_pipeline_segment,
     * one segment per pipeline stage, pp × virtual stages), so the two must count the same stages. The native manifest and the
     * Megatron adapter both give it as SYN002 at the layout, leave the layout out and price the segments: the pattern alone
     * builds the job's layers, the layout adds only the virtual stages that break it, so the layout is what a user fixes or
     * drops (one policy, one text: NativeLayoutAgreementTest). {@code patternKey} names the pattern as the file writes it.
     */
    public String segmentsProblem(String patternKey, List<Long> segments) {
        if (segments == null || segments.isEmpty() || segments.size() == stages.size()) return null;
        return "it has " + stages.size() + " stages and " + patternKey + "'s '|' segments " + segments.size() + " (Megatron-Core"
                + " takes the virtual stages from the layout and its HybridModel builds each stage's layers from the segments,"
                + " select_pipeline_segment: one segment per pipeline stage); write as many stages in the two, or drop the layout"
                + " (the segments alone split the decoder)";
    }

    /**
     * The plan's words when a hybrid pattern's '|' segments ({@code segments}, each stage's decoder layers) split the decoder
     * otherwise than this layout: Megatron-Core's HybridModel builds each stage's layers from the segments
     * (select_pipeline_segment) and never reads the layout for them, so the segments' split is priced; null when the two agree
     * or there are no segments. {@code key} and {@code patternKey} name the layout and the pattern as the file writes them.
     */
    public String besideSegments(String key, String patternKey, List<Long> segments) {
        if (segments == null || segments.isEmpty() || segments.equals(decoder())) return null;
        return key + " '" + Quantities.shortText(text) + "' splits the decoder's layers " + HybridPattern.describe(decoder())
                + " by stage, and " + patternKey + "'s '|' segments split them " + HybridPattern.describe(segments)
                + ": Megatron-Core's HybridModel builds each stage's layers from the pattern's segments (select_pipeline_segment in"
                + " megatron/core/models/hybrid/hybrid_layer_allocation.py; hybrid_model.py at 542a36d0 never reads the layout for"
                + " them), so the estimate prices the segments' split; the layout still gives the virtual stages (its stages ÷ pp)"
                + (mtpLayers() > 0 ? " and the MTP layers, priced on the last stage" : "") + ". Write the layout's stages as the"
                + " segments, or drop one of the two";
    }

    /**
     * The plan's words for a layout that places the MTP layers on several stages (Megatron-LM's mtp_split, {@link #mtpSplit}):
     * which build runs it and how the estimate prices it; null when one stage holds them. {@code onSegments}: a hybrid
     * pattern's '|' segments are the split priced (HybridModel builds each stage from them), so the MTP layers are priced on
     * the last stage, not where the m letters stand.
     */
    public String mtpSplitNote(String key, boolean onSegments) {
        if (!mtpSplit()) return null;
        return key + " '" + Quantities.shortText(text) + "' places the MTP layers (m) on " + stages.stream().filter(st -> st.mtp() > 0).count()
                + " stages: Megatron-LM's mtp_split (NVIDIA/Megatron-LM pull request #5329, an open pull request, not merged;"
                + " pipeline_parallel_layer_layout.py at github.com/shifangx/Megatron-LM 71ffeae2). Megatron-Core's main branch at 00caa53a"
                + " and its releases refuse it at start-up (\"All of the MTP layers must be in the same one virtual pipeline stage\"), so it"
                + " runs only on a build with that pull request; otherwise put every m on one stage. " + (onSegments
                ? "Priced on the last stage: the pattern's '|' segments split the stages, not the layout, so every MTP layer's blocks"
                + " (its '/' group's letters), eh_proj and norms are priced there"
                : "Priced as mtp_split builds it: each m's stage its MTP layers' blocks, eh_proj, norms and an embedding copy, in the"
                + " embedding group");
    }

    /**
     * The plan's words for a layout that places the loss on several stages (Megatron-LM's mtp_loss_split, {@link #lossSplit}):
     * which build runs it, then {@code how} the estimate prices it ({@link #LOSSES_PRICED}, {@link #HYBRID_LOSSES},
     * {@link #LOSSES_ON_SEGMENTS}); null when one stage holds the loss.
     */
    public String lossSplitNote(String key, String how) {
        if (!lossSplit()) return null;
        return key + " '" + Quantities.shortText(text) + "' places the loss (L) on " + stages.stream().filter(st -> st.loss() > 0).count()
                + " stages: Megatron-LM's mtp_loss_split (NVIDIA/Megatron-LM pull request #5318, an open pull request, not merged),"
                + " where each loss stage builds an output layer and computes the losses of its hidden-state chunks. Megatron-Core's"
                + " main branch at 00caa53a and its releases refuse it at start-up (\"Loss must be specified exactly once\"), so it runs"
                + " only on a build with that pull request; otherwise write one L, last. " + how;
    }

    /** {@link #lossSplitNote}'s pricing where each loss slot is priced on its stage (Specs.Mtp#lossStages). */
    public static final String LOSSES_PRICED = "Priced as that pull request builds it: each loss stage before the last its own output"
            + " layer (V·h ÷ tp, with its gradients and optimizer states), its losses' logits and cross-entropy (time, and activations"
            + " held for each micro-batch in flight), and after it the smaller sends (only the chunks it keeps)";

    /**
     * Why a hybrid model's loss slots are not priced where the layout writes them: the pull request's early loss stage is
     * GPTModel's ({@code loss_split_process}, set from the layout's get_loss_stage_info: gpt_model.py at
     * github.com/shifangx/Megatron-LM 71ffeae2deb4036b9802c47b26bd78216f5ed1d9); Megatron-Core's HybridModel has none: it builds
     * the output layer where {@code post_process or self.mtp_process} and computes the main and the MTP losses where
     * post_process (process_mtp_loss; megatron/core/models/hybrid/hybrid_model.py at 542a36d0ac88005261dcf3c8c47ff54627125101),
     * and its layers come from the pattern's '|' segments (select_pipeline_segment), which have no loss symbol. So every loss
     * runs on the last stage, whatever the layout's L slots say.
     */
    public static final String HYBRID_LOSSES = "A hybrid model does not split its loss: Megatron-Core's HybridModel builds the output layer"
            + " where post_process or mtp_process and computes the main and the MTP losses on the last stage (process_mtp_loss;"
            + " hybrid_model.py at 542a36d0, no loss_split_process, which the pull request builds in GPTModel alone), and its"
            + " pattern's '|' segments have no loss symbol; so the estimate prices the output layer, the logits and the losses on"
            + " the last stage, as HybridModel runs them";

    /** {@link #lossSplitNote}'s pricing where a pattern's segments, not the layout, split the stages. */
    public static final String LOSSES_ON_SEGMENTS = "The estimate prices the output layer, the logits and the losses on the last stage"
            + " alone (the pattern's segments split the stages, not the layout)";

    static final String EXPECTED = "expected stages of E (embedding), t (transformer layer), m (MTP layer) and L (loss) separated by '|',"
            + " with x*n and (…)*n repeats, as \"Et*3|(tt|)*29,m|L\"";

    private static List<Piece> letters(String text, int from, int to) {
        List<Piece> out = new ArrayList<>();
        int i = from;
        while (i < to) {
            if (text.charAt(i) == ',') { i++; continue; }
            int[] one = letter(text, i, to);
            out.add(new Piece(text.charAt(i), one[0]));
            i = one[1];
        }
        return out;
    }

    /** A letter at {@code i}, with its *n when written: {times, next index}. */
    private static int[] letter(String text, int i, int to) {
        char c = text.charAt(i);
        if ("ELtm|".indexOf(c) < 0) throw new Problem("'" + c + "' is not a layer letter; " + EXPECTED, i);
        if (i + 1 < to && text.charAt(i + 1) == '*') return count(text, i + 2, to);
        return new int[] {1, i + 1};
    }

    /** The digits of a repeat at {@code i}: {n, next index}. */
    private static int[] count(String text, int i, int to) {
        int j = i;
        while (j < to && text.charAt(j) >= '0' && text.charAt(j) <= '9') j++;
        if (j == i) throw new Problem("'*' must be followed by a whole number, the times to repeat", Math.max(0, i - 1));
        if (j - i > 6) throw new Problem("the repeat '" + text.substring(i, j) + "' is too large; a layout unrolls to at most " + MAX_UNROLLED + " letters", i);
        return new int[] {Integer.parseInt(text.substring(i, j)), j};
    }

    /** A letter or a group, repeated. */
    private record Piece(char letter, List<Piece> group, int times) {
        Piece(char letter, int times) { this(letter, null, times); }

        Piece(List<Piece> group, int times) { this('\0', group, times); }

        long length() {
            long one = group == null ? 1 : group.stream().mapToLong(Piece::length).sum();
            return one * times;
        }

        void unroll(Builder b) {
            for (int k = 0; k < times; k++) {
                if (group == null) b.add(letter);
                else for (Piece p : group) p.unroll(b);
            }
        }
    }

    /** Counts the letters into stages as they unroll. */
    private static final class Builder {
        private final List<Stage> done = new ArrayList<>();
        private int decoder, mtp, embedding, loss;
        private char firstLetter, lastLetter;
        private boolean sawMtp, mtpBeforeDecoder;

        void add(char c) {
            if (c == '|') {
                done.add(new Stage(decoder, mtp, embedding, loss));
                decoder = mtp = embedding = loss = 0;
                return;
            }
            if (firstLetter == 0) firstLetter = c;
            lastLetter = c;
            switch (c) {
                case 't' -> { decoder++; if (sawMtp) mtpBeforeDecoder = true; }
                case 'm' -> { mtp++; sawMtp = true; }
                case 'E' -> embedding++;
                default -> loss++;
            }
        }

        List<Stage> done() {
            done.add(new Stage(decoder, mtp, embedding, loss));
            return done;
        }
    }

    @Override public String toString() { return "PipelineLayout" + stages; }
}
