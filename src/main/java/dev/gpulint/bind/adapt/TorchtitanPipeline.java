package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.core.Finding;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs.StatedKind;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * torchtitan's own pipeline split: {@code pipeline_parallel_split_points} ({@code [parallelism]}, earlier
 * {@code [experimental]}), the modules that begin a new stage — {@code ["layers.4", "layers.12"]} makes three stages,
 * layers 0–3 (with the embedding), 4–11, and 12 to the last (with the norm and the output) — read into each stage's
 * transformer layers (Specs.Parallelism.stageLayers; the last stage's entry is -1, the layers the others leave, as the
 * model's layer count is often known only from its flavor). Stages are placed on the pipeline ranks as torchtitan's
 * {@code pipeline_parallel_schedule} places them (torchtitan/distributed/pipeline_parallel.py stage_ids_this_rank):
 * looped schedules put stage s on rank s mod pp; the V schedules (ZBVZeroBubble, DualPipeV) put stages s and
 * 2·pp − 1 − s on rank s. torchtitan asserts the stages are a multiple of pp ("num_stages must be evenly divisible by
 * pp_size"), two per rank under a V schedule: a split that does not fit, or whose points are not {@code layers.N} in
 * increasing order, is SYN002 at the value and left out.
 */
final class TorchtitanPipeline {
    /** The most split points read (a pipeline of more stages is refused with a message). */
    static final int MAX_POINTS = 4096;
    private static final Pattern LAYER = Pattern.compile("layers\\.([0-9]{1,9})");
    private static final String KEY = "pipeline_parallel_split_points";

    private TorchtitanPipeline() {}

    /** Reads the split points of {@code root} into {@code j}; a split that does not read or fit goes to {@code findings}. */
    static void read(JobDraft j, MappingNode root, Consumer<Finding> findings) {
        Node points = null;
        String table = null;
        for (String t : List.of("parallelism", "experimental")) {
            MappingNode m = map(root, t);
            if (m != null && m.get(KEY).isPresent()) { points = m.get(KEY).get(); table = t; break; }
        }
        if (!(points instanceof ListNode list) || list.items().isEmpty()) {
            if (points == null && !modules(j, root, findings)) pending(j, root);
            return;
        }
        // the value as written (the TOML reader gives each item the whole value's span; the list's own is its key's)
        dev.gpulint.core.Span at = list.items().get(0).span().to(list.items().get(list.items().size() - 1).span());
        String owner = j.name != null ? j.name.value() : j.file;
        String id = j.format + ":" + owner + "/" + KEY;
        if (list.items().size() > MAX_POINTS) {
            findings.accept(Finding.of("SYN002", at, id, "'" + KEY + "' lists " + list.items().size()
                    + " split points; at most " + MAX_POINTS + " are read, so the split is left out of the estimate"));
            return;
        }
        List<Long> bounds = new ArrayList<>();
        for (Node item : list.items()) {
            String text = item instanceof ScalarNode s && !s.isNull() ? s.text().strip() : "";
            if (TreeValues.placeholder(text)) return;                       // written but not known: the split stays even
            Matcher m = LAYER.matcher(text);
            if (!m.matches()) {
                findings.accept(Finding.of("SYN002", item.span(), id, "'" + KEY + "' names '" + dev.gpulint.spec.Quantities.shortText(text)
                        + "'; gpulint reads split points of the form \"layers.N\" (the module that begins a stage), so the split is left"
                        + " out of the estimate"));
                return;
            }
            long point = Long.parseLong(m.group(1));
            long before = bounds.isEmpty() ? 0 : bounds.get(bounds.size() - 1);
            if (point <= before) {
                findings.accept(Finding.of("SYN002", item.span(), id, "'" + KEY + "' names '" + text + "' after "
                        + (bounds.isEmpty() ? "the start" : "'layers." + before + "'") + "; each split point must begin a later layer than"
                        + " the one before, or a stage is empty, so the split is left out of the estimate"));
                return;
            }
            bounds.add(point);
        }
        ScalarNode scheduleNode = scalar(map(root, table), "pipeline_parallel_schedule");
        String schedule = scheduleNode == null || scheduleNode.isNull() ? "1F1B" : scheduleNode.text().strip();
        boolean v = schedule.toLowerCase(Locale.ROOT).matches("zbvzerobubble|dualpipev");
        int stages = bounds.size() + 1;
        long pp = j.pp != null ? j.pp.value() : j.unknown.contains("pp") ? 0 : 1;
        if (pp < 1) return;
        boolean single = schedule.toLowerCase(Locale.ROOT).matches("1f1b|gpipe");
        if (single && stages != pp) {
            findings.accept(Finding.of("SYN002", at, id, "'" + KEY + "' makes " + stages + " stages, but the single-stage"
                    + " schedule " + schedule + " runs one stage per rank (pipeline_parallel_degree " + pp + "); name a looped schedule"
                    + " (Interleaved1F1B) for more, so the split is left out of the estimate"));
            return;
        }
        if (j.layers != null && bounds.get(bounds.size() - 1) >= j.layers.value()) {
            findings.accept(Finding.of("SYN002", at, id, "'" + KEY + "' begins a stage at 'layers." + bounds.get(bounds.size() - 1)
                    + "' but the model has " + j.layers.value() + " layers, so the last stage is empty; the split is left out of the estimate"));
            return;
        }
        if (stages % pp != 0 || v && stages != 2 * pp) {
            findings.accept(Finding.of("SYN002", at, id, "'" + KEY + "' makes " + stages + " stages, " + (v
                    ? "not the two per rank the V schedule " + schedule + " places (2 × pp " + pp + ")"
                    : "not a multiple of pipeline_parallel_degree " + pp) + " (torchtitan: \"num_stages must be evenly divisible by"
                    + " pp_size\"), so the split is left out of the estimate"));
            return;
        }
        // each stage's layers in torchtitan's order; the last takes the rest (-1)
        long[] layers = new long[stages];
        for (int s = 0; s < stages; s++) {
            layers[s] = s == stages - 1 ? -1 : bounds.get(s) - (s == 0 ? 0 : bounds.get(s - 1));
        }
        place(j, layers, pp, v, KEY, "[" + table + "] " + KEY, at);
    }

    private static final String MODULES = "module_fqns_per_model_part";

    /**
     * torchtitan's module list per stage ({@code [parallelism] module_fqns_per_model_part}, newer torchtitan:
     * {@code [["tok_embeddings", "layers.0", "layers.1"], ["layers.2", "layers.3", "norm", "output"]]}), which it uses
     * instead of split points or its own split: each inner list is one stage's modules in stage order; its
     * {@code layers.N} entries are the stage's transformer layers, the other names (the embedding, the norm, the output)
     * are not counted. Placed on the ranks as the schedule places stages ({@link #place}); a list torchtitan refuses
     * (stages not a multiple of pp, not one per rank under 1F1B/GPipe, not two under a V schedule, a layer named twice) is
     * SYN002 at the value and left out, as is one that does not name all the model's layers ({@link #modulesFit}, once the
     * layers are known). Returns whether the key is written.
     */
    private static boolean modules(JobDraft j, MappingNode root, Consumer<Finding> findings) {
        MappingNode par = map(root, "parallelism");
        Node written = par == null ? null : par.get(MODULES).orElse(null);
        if (written == null) return false;
        if (!(written instanceof ListNode parts) || parts.items().isEmpty()) return true;
        // the value as written: from the first stage's first name to the last stage's last (the inner lists' own spans are the key's)
        dev.gpulint.core.Span at = innermost(parts.items().get(0), true).span().to(innermost(parts.items().get(parts.items().size() - 1), false).span());
        String owner = j.name != null ? j.name.value() : j.file;
        String id = j.format + ":" + owner + "/" + MODULES;
        if (parts.items().size() > MAX_POINTS) {
            findings.accept(Finding.of("SYN002", at, id, "'" + MODULES + "' lists " + parts.items().size() + " stages; at most "
                    + MAX_POINTS + " are read, so the split is left out of the estimate"));
            return true;
        }
        long[] layers = new long[parts.items().size()];
        java.util.Set<Long> seen = new java.util.HashSet<>();
        int entries = 0;
        for (int s = 0; s < layers.length; s++) {
            if (!(parts.items().get(s) instanceof ListNode part)) {
                findings.accept(Finding.of("SYN002", parts.items().get(s).span(), id, "'" + MODULES + "' has "
                        + parts.items().get(s).describe() + " where a stage's list of module names belongs, so the split is left out of the estimate"));
                return true;
            }
            for (Node item : part.items()) {
                if (++entries > 64 * MAX_POINTS) return true;                 // bounded: far past any model's modules
                String text = item instanceof ScalarNode n && !n.isNull() ? n.text().strip() : "";
                if (TreeValues.placeholder(text)) return true;               // not known: the split stays even
                Matcher m = LAYER.matcher(text);
                if (!m.matches()) continue;                                  // the embedding, the norm, the output: not layers
                long layer = Long.parseLong(m.group(1));
                if (!seen.add(layer)) {
                    findings.accept(Finding.of("SYN002", item.span(), id, "'" + MODULES + "' names '" + text + "' twice; each"
                            + " layer belongs to one stage, so the split is left out of the estimate"));
                    return true;
                }
                layers[s]++;
            }
        }
        ScalarNode scheduleNode = scalar(par, "pipeline_parallel_schedule");
        String schedule = scheduleNode == null || scheduleNode.isNull() ? "1F1B" : scheduleNode.text().strip();
        String lower = schedule.toLowerCase(Locale.ROOT);
        boolean single = lower.matches("1f1b|gpipe"), v = lower.matches("zbvzerobubble|dualpipev");
        int stages = layers.length;
        long pp = j.pp != null ? j.pp.value() : j.unknown.contains("pp") ? 0 : 1;
        if (pp < 1) return true;
        String why = single && stages != pp ? "but the single-stage schedule " + schedule + " runs one stage per rank"
                + " (pipeline_parallel_degree " + pp + ")"
                : stages % pp != 0 ? "not a multiple of pipeline_parallel_degree " + pp + " (torchtitan: \"num_stages must be evenly"
                        + " divisible by pp_size\")"
                : v && stages != 2 * pp ? "not the two per rank the V schedule " + schedule + " places (2 × pp " + pp + ")" : null;
        if (why != null) {
            findings.accept(Finding.of("SYN002", at, id, "'" + MODULES + "' makes " + stages + " stages, " + why
                    + ", so the split is left out of the estimate"));
            return true;
        }
        place(j, layers, pp, v, MODULES, "[parallelism] " + MODULES, at);
        return true;
    }

    /**
     * A module list per stage checked against the model's layers once they are known (from the flavor, after the model
     * catalog): every layer named once, so the stages' layers add up to the model's; else SYN002 at the value, left out.
     */
    private static void modulesFit(JobDraft j, Consumer<Finding> findings) {
        if (j.stageLayers == null || !MODULES.equals(j.keys.get(j.stageLayers)) || j.layers == null || j.layers.value() < 1) return;
        long named = 0;
        for (long l : j.stageLayers.value()) named += l;
        if (named == j.layers.value()) return;
        String owner = j.name != null ? j.name.value() : j.file;
        findings.accept(Finding.of("SYN002", j.stageLayers.span(), j.format + ":" + owner + "/" + MODULES, "'" + MODULES + "' names "
                + named + " transformer layers (layers.N) over its " + j.stageLayers.value().size() + " stages, but the model has "
                + j.layers.value() + "; each layer must be in one stage, so the split is left out of the estimate"));
        j.stageLayers = null;
    }

    /** A stage's first (or last) module name, or the stage itself when it lists none. */
    private static Node innermost(Node part, boolean first) {
        if (part instanceof ListNode l && !l.items().isEmpty()) return l.items().get(first ? 0 : l.items().size() - 1);
        return part;
    }

    /**
     * Stage {@code i}'s layers ({@code layers}, torchtitan's stage order) written into {@code j} in Megatron's order
     * (entry v·pp + r is rank r's v-th stage; the V schedule's second stage of rank r is 2·pp − 1 − r), with the
     * virtual stages per rank they make.
     */
    private static void place(JobDraft j, long[] layers, long pp, boolean v, String key, String where, dev.gpulint.core.Span at) {
        int stages = layers.length;
        List<Long> ordered = new ArrayList<>(stages);
        for (int i = 0; i < stages; i++) {
            int rank = (int) (i % pp), virtual = (int) (i / pp);
            int s = v && virtual == 1 ? (int) (2 * pp - 1 - rank) : i;
            ordered.add(layers[s]);
        }
        j.stageLayers = j.key(key, new Located<>(ordered, at));
        long vpp = stages / pp;
        j.state("vpp", vpp, where + " (" + stages + " stages ÷ pp " + pp + ")", StatedKind.CONFIG, at);
        if (j.vpp == null && vpp > 1) j.vpp = j.key(key, new Located<>(vpp, at));
    }

    /**
     * torchtitan's own split when no split points are written (torchtitan/distributed/pipeline_parallel.py, pipeline_llm
     * and generate_llm_fqn_per_model_part, at github.com/pytorch/torchtitan commit 02ef790c): the stages are
     * pp for a single-stage schedule (1F1B, GPipe) and 2·pp for a looped one, or, with
     * {@code pipeline_parallel_layers_per_stage} k, ⌈(L + in + out)/k⌉; the embedding counts as {@code in} layers and
     * the norm with the output as {@code out} ({@code pipeline_parallel_first_stage_less_layers} /
     * {@code last_stage_less_layers}, 1 each by default); the L + in + out "effective" layers are dealt out evenly, the
     * first (L + in + out) mod stages stages taking one more, and the first stage gives {@code in} of its share to the
     * embedding, the last {@code out} to the output. Read when the model's layers are known, after the model catalog
     * ({@link #generate}).
     */
    record Default(Located<Long> layersPerStage, long inputWeight, long outputWeight, String schedule, String table) {}

    private static final String PER_STAGE = "pipeline_parallel_layers_per_stage";

    private static void pending(JobDraft j, MappingNode root) {
        for (String t : List.of("parallelism", "experimental")) {
            MappingNode m = map(root, t);
            if (m == null || scalar(m, "pipeline_parallel_degree") == null && j.pp == null) continue;
            ScalarNode schedule = scalar(m, "pipeline_parallel_schedule");
            Located<Long> perStage = TreeValues.whole(scalar(m, PER_STAGE));
            Located<Long> in = TreeValues.whole(scalar(m, "pipeline_parallel_first_stage_less_layers"));
            Located<Long> out = TreeValues.whole(scalar(m, "pipeline_parallel_last_stage_less_layers"));
            j.titanSplit = new Default(perStage, in == null ? 1 : in.value(), out == null ? 1 : out.value(),
                    schedule == null || schedule.isNull() ? "1F1B" : schedule.text().strip(), t);
            return;
        }
    }

    /**
     * torchtitan's default split of a job whose model's layers are now known ({@link Default}): each stage's layers, as
     * torchtitan builds them; a configuration torchtitan refuses (its ValueErrors: stages not a multiple of pp, not one
     * per rank under a single-stage schedule, fewer than two under a looped one, an empty stage, a weight above a
     * stage's share) is SYN002 at pipeline_parallel_layers_per_stage (else the pipeline degree) and left even.
     */
    static void generate(JobDraft j, Consumer<Finding> findings) {
        modulesFit(j, findings);
        Default d = j.titanSplit;
        if (d == null || j.stageLayers != null || j.layers == null || j.pp == null || j.pp.value() <= 1 || j.layers.value() < 1) return;
        long pp = j.pp.value(), layers = j.layers.value();
        String lower = d.schedule().toLowerCase(Locale.ROOT);
        boolean single = lower.matches("1f1b|gpipe"), v = lower.matches("zbvzerobubble|dualpipev");
        dev.gpulint.core.Span at = d.layersPerStage() != null ? d.layersPerStage().span() : j.pp.span();
        String owner = j.name != null ? j.name.value() : j.file;
        String id = j.format + ":" + owner + "/" + PER_STAGE;
        long in = d.inputWeight(), out = d.outputWeight(), effective = layers + in + out;
        if (in < 0 || out < 0) return;
        long stages;
        if (d.layersPerStage() != null) {
            long k = d.layersPerStage().value();
            if (k < 1) return;                                         // the schema's bounds are not torchtitan's to judge here
            stages = (effective + k - 1) / k;
            String why = stages % pp != 0 ? "not a multiple of pipeline_parallel_degree " + pp
                    : single && stages != pp ? "but the single-stage schedule " + d.schedule() + " runs one stage per rank"
                    : !single && stages / pp < 2 ? "but the looped schedule " + d.schedule() + " needs at least two per rank"
                    : v && stages != 2 * pp ? "not the two per rank the V schedule " + d.schedule() + " places" : null;
            if (why != null) {
                findings.accept(Finding.of("SYN002", at, id, "'" + PER_STAGE + "' " + k + " makes ⌈(" + layers + " layers + " + in
                        + " for the embedding + " + out + " for the output) ÷ " + k + "⌉ = " + stages + " stages, " + why
                        + " (torchtitan refuses it), so the split is left out of the estimate"));
                return;
            }
        } else {
            stages = single ? pp : 2 * pp;
        }
        if (stages > Integer.MAX_VALUE || stages > MAX_POINTS + 1) return;
        long per = effective / stages, extra = effective % stages;
        if (per == 0 || in > per || out > per) {
            findings.accept(Finding.of("SYN002", at, id, "torchtitan deals " + layers + " layers + " + in + " for the embedding + " + out
                    + " for the output over " + stages + " stages, " + per + " each, " + (per == 0 ? "so a stage is empty"
                    : "fewer than the embedding's or the output's weight") + " (torchtitan refuses it), so the split is left out of the estimate"));
            return;
        }
        long[] split = new long[(int) stages];
        long left = layers;
        for (int s = 0; s < stages; s++) {
            long share = per + (s < extra ? 1 : 0) - (s == 0 ? in : 0) - (s == stages - 1 ? out : 0);
            split[s] = Math.min(Math.max(0, share), left);
            left -= split[s];
        }
        place(j, split, pp, v, d.layersPerStage() != null ? PER_STAGE : "pipeline_parallel_degree",
                d.layersPerStage() != null ? "[" + d.table() + "] " + PER_STAGE : "torchtitan's default split", at);
    }
}
