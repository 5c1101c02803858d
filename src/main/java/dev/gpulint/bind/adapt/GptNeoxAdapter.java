package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import dev.gpulint.spec.Specs.StatedKind;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;

/**
 * EleutherAI gpt-neox YAML configurations: Megatron-style keys written with hyphens or
 * underscores ({@code model-parallel-size}, {@code pipe-parallel-size}, {@code num-layers},
 * {@code hidden-size}, {@code num-attention-heads}, {@code seq-length}) beside DeepSpeed's own keys
 * ({@code train_micro_batch_size_per_gpu}, {@code gradient_accumulation_steps},
 * {@code train_batch_size}, {@code zero_optimization.stage}), and the launcher's {@code num_gpus}
 * and {@code num_nodes}. The configuration states no parameter count: it is estimated as
 * 12 × layers × hidden² (each layer's attention 4h² and MLP 8h² weights; embeddings left out, so
 * it is an under-estimate), which MEM001 names in its message.
 */
final class GptNeoxAdapter implements FormatAdapter {
    static final String FORMAT = Format.GPT_NEOX.display();

    @Override public String id() { return "gpt-neox"; }

    @Override public String displayName() { return FORMAT; }

    @Override public boolean accepts(ForeignDocument doc) {
        MappingNode root = doc.root();
        boolean parallel = has(root, "model-parallel-size") || has(root, "pipe-parallel-size");
        boolean shape = has(root, "num-layers") || has(root, "hidden-size") || has(root, "num-attention-heads");
        return parallel && shape;
    }

    private static boolean has(MappingNode root, String key) {
        return root.get(key).isPresent() || root.get(key.replace('-', '_')).isPresent();
    }

    /** The entry under its hyphen or underscore name (gpt-neox accepts both), the hyphen form first. */
    private static ScalarNode value(MappingNode root, String key) {
        Node n = root.get(key).orElse(null);
        if (n == null) n = root.get(key.replace('-', '_')).orElse(null);
        return n instanceof ScalarNode s ? s : null;
    }

    private static String written(MappingNode root, String key) {
        return root.get(key).isPresent() ? key : key.replace('-', '_');
    }

    private static Located<Long> number(JobDraft j, MappingNode root, String key) {
        return j.key(written(root, key), TreeValues.whole(value(root, key)));
    }

    /** A model size under its hyphen or underscore name ({@link JobDraft#size}: written but no whole number, it is unknown). */
    private static Located<Long> size(JobDraft j, MappingNode root, String key, String path) {
        return j.size(value(root, key), written(root, key), path);
    }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        MappingNode root = doc.root();
        JobDraft j = new JobDraft(FORMAT, doc.file(), root.span());
        j.name = new Located<>(doc.name(), root.entries().isEmpty() ? root.span() : root.entries().get(0).key().span());
        j.tp = number(j, root, "model-parallel-size");
        Located<Long> pp = number(j, root, "pipe-parallel-size");
        // pipe-parallel-size 0 is gpt-neox's "no pipeline module": one stage, like 1
        j.pp = pp != null && pp.value() == 0 ? j.key(written(root, "pipe-parallel-size"), new Located<>(1L, pp.span())) : pp;
        j.layers = size(j, root, "num-layers", "model.layers");
        j.hidden = size(j, root, "hidden-size", "model.hidden_size");
        j.heads = size(j, root, "num-attention-heads", "model.attention_heads");
        j.seqLength = size(j, root, "seq-length", "model.seq_length");
        Located<Long> gpus = number(j, root, "num-gpus");
        if (gpus != null && gpus.value() > 0) { j.gpusPerNode = gpus; j.gpusPerNodeWhere = written(root, "num-gpus"); }
        Located<Long> nodes = number(j, root, "num-nodes");
        if (nodes != null && nodes.value() > 0 && j.gpusPerNode != null) j.nodes = nodes;     // -1: every host of the hostfile
        Located<Long> tbs = number(j, root, "train_batch_size");
        Located<Long> micro = number(j, root, "train_micro_batch_size_per_gpu");
        Located<Long> gas = number(j, root, "gradient_accumulation_steps");
        if (tbs != null || micro != null || gas != null) j.deepspeed = new Specs.DeepSpeedBatch(tbs, micro, gas);
        j.micro = micro;
        j.global = tbs;
        DeepSpeedAdapter.accumulation(j, tbs, gas);
        MappingNode zero = map(root, "zero_optimization");
        if (zero != null) {
            ScalarNode stage = TreeValues.scalar(zero, "stage");
            j.zeroStage = j.key("zero_optimization.stage", TreeValues.whole(stage));
            j.zeroStageUnknown = j.zeroStage == null && stage != null && !stage.isNull() && TreeValues.placeholder(stage.text());
        }
        if (j.layers != null && j.hidden != null && j.layers.value() > 0 && j.hidden.value() > 0
                && j.layers.value() < 1_000_000 && j.hidden.value() < 10_000_000) {
            double h = j.hidden.value();
            double params = 12.0 * j.layers.value() * h * h;
            j.parameters = new Located<>(params, j.layers.span());
            j.stated.add(new Specs.Stated("parameters", String.valueOf((long) params),
                    "≈ 12 × " + written(root, "num-layers") + " " + j.layers.value() + " × " + written(root, "hidden-size") + " "
                            + j.hidden.value() + "², the layers' weights without embeddings; the configuration states no count",
                    StatedKind.CONFIG, j.layers.span()));
        }
        plan(j, root);
        PipePartition.read(j, value(root, "pipe-partition-method"),
                root.get("pipe_partition_method").isPresent() ? "pipe_partition_method" : "pipe-partition-method");
        if (j.gpusPerNode != null && j.nodes != null) {
            j.state("world", JobDraft.product(j.nodes, j.gpusPerNode), "num_nodes × num_gpus", StatedKind.CONFIG, j.nodes.span());
        }
        sink.draft(j);
    }

    /**
     * What `gpulint plan` reads: {@code precision} (bfloat16, fp16, fp32) or DeepSpeed's {@code fp16} / {@code bf16}
     * {@code enabled}; {@code checkpoint-activations} (gpt-neox recomputes whole layers: full, or none);
     * {@code no-weight-tying} (untied embeddings); {@code num-kv-heads}; {@code intermediate-size} (the MLP width) and
     * an {@code activation} of the GLU family (gated); {@code sequence_parallel}. What the file does not say takes the plan's defaults.
     */
    private static void plan(JobDraft j, MappingNode root) {
        ScalarNode precision = value(root, "precision");
        if (precision != null && !precision.isNull()) j.dtype = new Located<>(precision.text(), precision.span());
        else {
            for (String d : new String[] {"bf16", "fp16"}) {
                MappingNode m = map(root, d);
                Located<Boolean> on = m == null ? null : TreeValues.bool(TreeValues.scalar(m, "enabled"));
                if (on != null && on.value()) { j.dtype = new Located<>(d, on.span()); break; }
            }
        }
        Located<Boolean> ckpt = TreeValues.bool(value(root, "checkpoint-activations"));
        if (ckpt != null) j.recompute = new Located<>(ckpt.value() ? "full" : "none", ckpt.span());
        Located<Boolean> untied = TreeValues.bool(value(root, "no-weight-tying"));
        if (untied != null) j.tied = new Located<>(!untied.value(), untied.span());
        Located<Long> kv = size(j, root, "num-kv-heads", "model.kv_heads");
        if (kv != null) j.kvHeads = kv;
        Located<Long> ffn = size(j, root, "intermediate-size", "model.ffn_hidden_size");
        if (ffn != null) j.ffn = ffn;
        // sequence_parallel (newer gpt-neox, NeoXArgsParallelism, default False): unwritten, the plan takes it off (JobInputs)
        Located<Boolean> sp = TreeValues.bool(value(root, "sequence-parallel"));
        if (sp != null) j.sequenceParallel = j.key(written(root, "sequence-parallel"), sp);
        ScalarNode act = value(root, "activation");
        if (act != null && !act.isNull()) j.gated = new Located<>(act.text().toLowerCase(java.util.Locale.ROOT).contains("glu"), act.span());
    }
}
