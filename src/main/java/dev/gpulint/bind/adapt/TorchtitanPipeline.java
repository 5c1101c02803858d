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
        if (!(points instanceof ListNode list) || list.items().isEmpty()) return;
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
        // in Megatron's order (entry v·pp + r is rank r's v-th stage): the V schedule's second stage of rank r is 2·pp − 1 − r
        List<Long> ordered = new ArrayList<>(stages);
        for (int i = 0; i < stages; i++) {
            int rank = (int) (i % pp), virtual = (int) (i / pp);
            int s = v && virtual == 1 ? (int) (2 * pp - 1 - rank) : i;
            ordered.add(layers[s]);
        }
        j.stageLayers = j.key(KEY, new Located<>(ordered, at));
        long vpp = stages / pp;
        j.state("vpp", vpp, "[" + table + "] " + KEY + " (" + stages + " stages ÷ pp " + pp + ")", StatedKind.CONFIG, at);
        if (j.vpp == null && vpp > 1) j.vpp = j.key(KEY, new Located<>(vpp, at));
    }
}
