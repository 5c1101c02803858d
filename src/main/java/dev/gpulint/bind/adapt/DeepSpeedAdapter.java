package dev.gpulint.bind.adapt;

import java.util.Locale;
import static dev.gpulint.bind.adapt.TreeValues.map;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

/**
 * DeepSpeed configuration JSON: the batch triple ({@code train_batch_size},
 * {@code train_micro_batch_size_per_gpu}, {@code gradient_accumulation_steps}; "auto" is unknown)
 * and the ZeRO stage, which shards model states for MEM001.
 */
final class DeepSpeedAdapter implements FormatAdapter {
    static final String FORMAT = Format.DEEPSPEED.display();

    DeepSpeedAdapter() {}


    @Override public String id() { return "deepspeed"; }

    @Override public String displayName() { return FORMAT; }

    /** DeepSpeed's keys are plain words: only a JSON file is taken for a DeepSpeed configuration. */
    @Override public boolean accepts(ForeignDocument doc) {
        return doc.file().toLowerCase(Locale.ROOT).endsWith(".json") && accepts(doc.root());
    }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        sink.draft(bind(doc.root(), doc.file(), doc.name()));
    }

    static boolean accepts(MappingNode root) {
        return root.get("train_batch_size").isPresent() || root.get("train_micro_batch_size_per_gpu").isPresent()
                || root.get("zero_optimization").isPresent() || root.get("gradient_accumulation_steps").isPresent();
    }

    /**
     * DeepSpeed's step is train_batch_size = train_micro_batch_size_per_gpu × gradient_accumulation_steps × dp
     * (deepspeed/runtime/config.py _configure_train_batch_size, which derives whichever of the three is missing): a
     * file that writes the accumulation steps but not train_batch_size sets the micro-batches per step by them, and
     * the global batch follows from dp (derive.estimate.JobInputs). With train_batch_size written, that and dp give the
     * count (Layout#microBatches), and the batch check compares the triple.
     */
    static void accumulation(JobDraft j, Located<Long> tbs, Located<Long> gas) {
        if (tbs == null && gas != null && gas.value() > 0) j.microBatches = gas;
    }

    static JobDraft bind(MappingNode root, String file, String jobName) {
        JobDraft j = new JobDraft(FORMAT, file, root.span());
        j.name = new Located<>(jobName, root.entries().isEmpty() ? root.span() : root.entries().get(0).key().span());
        Located<Long> tbs = j.key("train_batch_size", TreeValues.whole(scalar(root, "train_batch_size")));
        Located<Long> micro = j.key("train_micro_batch_size_per_gpu", TreeValues.whole(scalar(root, "train_micro_batch_size_per_gpu")));
        Located<Long> gas = j.key("gradient_accumulation_steps", TreeValues.whole(scalar(root, "gradient_accumulation_steps")));
        j.deepspeed = new Specs.DeepSpeedBatch(tbs, micro, gas);
        j.micro = micro;
        j.global = tbs;
        accumulation(j, tbs, gas);
        MappingNode zero = map(root, "zero_optimization");
        if (zero != null) {
            j.zeroStage = j.key("stage", TreeValues.whole(scalar(zero, "stage")));
            ScalarNode stage = scalar(zero, "stage");
            j.zeroStageUnknown = j.zeroStage == null && stage != null && !stage.isNull() && TreeValues.placeholder(stage.text());
            OffloadSettings.deepspeed(j, zero);
        }
        // what `gpulint plan` reads: bf16/fp16 enabled, activation checkpointing (full recompute)
        for (String p : new String[] {"bf16", "fp16"}) {
            Located<Boolean> on = TreeValues.bool(scalar(root, p, "enabled"));
            if (on != null && on.value() && j.dtype == null) j.dtype = new Located<>(p, on.span());
        }
        if (root.get("activation_checkpointing").orElse(null) instanceof MappingNode ac) {
            Located<Boolean> part = TreeValues.bool(scalar(ac, "partition_activations"));
            j.recompute = new Located<>("full", part != null ? part.span() : ac.span());
        }
        ScalarNode backend = scalar(root, "optimizer", "params", "comm_backend_name");
        if (backend != null && !backend.isNull()) {
            String b = backend.text().strip().toLowerCase(java.util.Locale.ROOT);
            j.stated.add(new Specs.Stated("comm_backend", b, "optimizer.params.comm_backend_name", Specs.StatedKind.CONFIG, backend.span()));
            // examples keep one copy per backend, named after it (mpi_ethernet/, nccl/): the name must match the content
            String[] parts = file.split("/");
            int from = Math.max(0, parts.length - 2);
            for (int i = from; i < parts.length; i++) {
                String part = i == parts.length - 1 ? parts[i].replaceFirst("\\.json$", "") : parts[i];
                for (String token : part.toLowerCase(java.util.Locale.ROOT).split("[_.\\-]")) {
                    if (token.equals("mpi") || token.equals("nccl") || token.equals("gloo")) {
                        String what = i == parts.length - 1 ? "the file name '" + parts[i] + "'" : "the folder name '" + parts[i] + "'";
                        j.stated.add(new Specs.Stated("comm_backend", token, what + " (" + token + ")", Specs.StatedKind.NAME, null));
                    }
                }
            }
        }
        return j;
    }
}
