package dev.gpulint.bind;

import dev.gpulint.spec.ParallelDim;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Schema v1 of the manifest format (docs/format.md), as data: field names, types, required fields,
 * allowed values and ranges. The binder validates every document against it
 * (SYN002, UNIT003) before it builds the typed model.
 */
public final class Schema {

    public enum Type { STRING, INT, BOOL, BANDWIDTH, SIZE, COUNT, NUMBER, FRACTION, DURATION, ENUM, RATIO, ORDER, MAP, LIST, STRING_MAP, LAYER_PATTERN,
        /** A list of names, each one of the field's values ({@code recompute_modules: [layernorm, moe_act]}). */
        CHOICES,
        /** A hybrid Mamba model's layers, one character each of M, *, - and E, at most {@link #HYBRID_LAYERS} ({@code model.hybrid.pattern}). */
        HYBRID_PATTERN }

    /**
     * The most layers a native hybrid pattern, and the largest Mamba-2 size model.hybrid, states: 65,536, the bound a
     * Megatron script's --mamba-* sizes and --hybrid-layer-pattern have (bind/adapt/HybridLayers.MAX_SIZE,
     * spec/HybridPattern.MAX_CHARS), far above any published model's.
     */
    public static final int HYBRID_LAYERS = dev.gpulint.spec.HybridPattern.MAX_CHARS;

    public record Field(String name, Type type, boolean required, Map<String, Field> children,
                        List<String> values, long min, long max) {
        public Field child(String n) { return children.get(n); }

        /**
         * The binder's message for an integer outside this field's bounds, naming the key as the
         * input wrote it; null when the value is in bounds. Adapters report with the same words.
         */
        public String outOfRange(String key, long value) {
            // a long's two ends stand for the numbers beyond them (TreeValues.whole reads 10^20 as Long.MAX_VALUE), so no
            // field admits them, whatever its bounds
            String is = value == Long.MAX_VALUE ? "at least " + value + " (2^63 - 1)" : value == Long.MIN_VALUE ? "at most " + value + " (-2^63)"
                    : String.valueOf(value);
            if (value >= Math.max(min, Long.MIN_VALUE + 1) && value <= Math.min(max, Long.MAX_VALUE - 1)) return null;
            return "'" + key + "' is " + is + "; expected " + expected() + beyond(value == Long.MAX_VALUE, value == Long.MIN_VALUE);
        }

        /**
         * The message for a whole number written beyond a long ({@code written} as the input has it;
         * {@link dev.gpulint.spec.Quantities#beyondLong}): out of this field's bounds, whatever they are.
         */
        public String outOfRange(String key, String written) {
            boolean negative = written.strip().startsWith("-");
            return "'" + key + "' is " + dev.gpulint.spec.Quantities.shortText(written.strip()) + "; expected " + expected() + beyond(!negative, negative);
        }

        /**
         * gpulint's own limit, for a number beyond a long's ends that the field's range does not already exclude: a field
         * whose range is "of at least 1" would otherwise seem to admit 10^20.
         */
        private String beyond(boolean aboveLong, boolean belowLong) {
            return aboveLong && max == Long.MAX_VALUE || belowLong && min == Long.MIN_VALUE ? BEYOND : "";
        }

        /** What this integer field allows, in {@link #wholeNumber}'s words. */
        public String expected() {
            return wholeNumber(min, max);
        }
    }

    /**
     * The one wording of an integer's allowed range, for the binder's bounds and every adapter's: "a whole number from 1 to
     * 2147483647", "a whole number of at least 1". A long's ends are gpulint's own reading, not the field's bound, so they
     * are not named as one: a value beyond them says so itself ({@link #BEYOND}).
     */
    public static String wholeNumber(long min, long max) {
        boolean low = min > Long.MIN_VALUE, high = max < Long.MAX_VALUE;
        if (low && high) return "a whole number from " + min + " to " + max;
        if (low) return "a whole number of at least " + min;
        if (high) return "a whole number of at most " + max;
        return "a whole number";
    }

    /** Added to the message of a number beyond a long's ends where the field's range does not exclude it. */
    static final String BEYOND = " (gpulint reads whole numbers from " + (Long.MIN_VALUE + 1) + " to " + (Long.MAX_VALUE - 1) + ")";

    public static final List<String> DIRECTIONS = List.of("unidirectional", "bidirectional");
    public static final List<String> PROTOCOLS = List.of("infiniband", "roce", "ethernet");
    /** What a rank order ({@code parallelism.order}) may name: the ranked dimensions' short names, tp, cp, ep, dp, pp. */
    public static final List<String> ORDER_DIMS = ParallelDim.rankedLabels();

    public static final Field CLUSTER = map("cluster", true,
            str("kind", true), str("name", true),
            map("fabric", false,
                    en("type", false, PROTOCOLS),
                    en("topology", false, List.of("rail-optimized", "fat-tree", "other")),
                    f("oversubscription", Type.RATIO, false),
                    map("roce", false,
                            map("pfc", false, f("enabled", Type.BOOL, false), num("priority", false, 0, 7)),
                            map("ecn", false, f("enabled", Type.BOOL, false)),
                            num("dscp", false, 0, 63)),
                    f("link_speed", Type.BANDWIDTH, false)),
            list("node_groups", true,
                    str("name", true), num("count", true, 1, Integer.MAX_VALUE),
                    map("gpu", true, str("model", true), num("count", true, 1, 1_000_000), f("memory", Type.SIZE, false),
                            num("clock_limit_mhz", false, 1, 100_000), num("power_limit_w", false, 1, 100_000)),
                    map("nvlink", false, f("switch", Type.BOOL, false),
                            en("bridge", false, List.of("none", "pairs", "quads")),
                            f("bandwidth", Type.BANDWIDTH, false), en("direction", false, DIRECTIONS),
                            num("domain_size", false, 1, 1_000_000)),
                    map("pcie", false, num("generation", false, 1, 7), num("lanes", false, 1, 32),
                            f("bandwidth", Type.BANDWIDTH, false), en("direction", false, DIRECTIONS)),
                    list("nics", false, str("model", false), num("count", false, 1, 64),
                            f("speed", Type.BANDWIDTH, false), en("protocol", false, PROTOCOLS),
                            f("gpudirect_rdma", Type.BOOL, false))));

    public static final Field JOB = map("training_job", true,
            str("kind", true), str("name", true), str("cluster", false), str("node_group", false),
            num("nodes", false, 1, Integer.MAX_VALUE), num("gpus_per_node", false, 1, 1_000_000),
            map("model", false, f("parameters", Type.COUNT, false), str("dtype", false),
                    num("layers", false, 1, Integer.MAX_VALUE), num("attention_heads", false, 1, Integer.MAX_VALUE),
                    num("kv_heads", false, 1, Integer.MAX_VALUE), num("hidden_size", false, 1, Integer.MAX_VALUE),
                    num("seq_length", false, 1, Integer.MAX_VALUE), num("experts", false, 1, Integer.MAX_VALUE),
                    f("expert_parameters", Type.COUNT, false), num("ffn_hidden_size", false, 1, Integer.MAX_VALUE),
                    num("vocab_size", false, 1, Integer.MAX_VALUE), num("head_dim", false, 1, Integer.MAX_VALUE),
                    f("gated_mlp", Type.BOOL, false), f("tied_embeddings", Type.BOOL, false),
                    num("top_k", false, 1, 1024), num("mtp_layers", false, 0, 64),
                    map("moe", false, num("expert_ffn_hidden_size", false, 1, Integer.MAX_VALUE),
                            num("shared_expert_ffn_hidden_size", false, 1, Integer.MAX_VALUE), f("layer_freq", Type.LAYER_PATTERN, false),
                            num("dense_layers", false, 0, Integer.MAX_VALUE), f("capacity_factor", Type.NUMBER, false),
                            f("pad_to_capacity", Type.BOOL, false), en("dispatcher", false, List.of("alltoall", "allgather", "flex")),
                            f("overlap_a2a", Type.BOOL, false), f("grouped_gemm", Type.BOOL, false),
                            f("activation_clamp", Type.NUMBER, false), f("expert_bias", Type.BOOL, false),
                            num("router_num_groups", false, 1, 1024), num("router_group_topk", false, 1, 1024),
                            en("flex_backend", false, List.of("deepep", "hybridep"))),
                    map("attention", false, num("sliding_window", false, 1, Integer.MAX_VALUE),
                            num("full_attention_every", false, 1, Integer.MAX_VALUE), f("sinks", Type.BOOL, false),
                            num("kv_lora_rank", false, 1, Integer.MAX_VALUE), num("q_lora_rank", false, 1, Integer.MAX_VALUE),
                            num("qk_head_dim", false, 1, Integer.MAX_VALUE), num("qk_rope_head_dim", false, 0, Integer.MAX_VALUE),
                            num("v_head_dim", false, 1, Integer.MAX_VALUE),
                            // the attention kernel (derive/estimate/AttentionKernel): its rate per GPU family, catalog attention_<kernel>
                            en("kernel", false, List.of("fused", "flash2", "flash3", "unfused"))),
                    // the loss's cross-entropy kernel (derive/estimate/LossKernel, Specs.Model#crossEntropy): te is Transformer
                    // Engine's fused one (Megatron's --cross-entropy-loss-fusion --cross-entropy-fusion-impl te), native and unfused Megatron-Core's
                    map("loss", false, en("kernel", false, List.of("native", "unfused", "te", "linear"))),
                    // a hybrid Mamba model (Megatron-Core's hybrid_override_pattern): its layers by kind and its Mamba-2 mixer's sizes
                    // (derive/estimate/MambaLayers), bounded as a Megatron script's --mamba-* sizes are
                    map("hybrid", false, f("pattern", Type.HYBRID_PATTERN, false), num("mamba_num_heads", false, 1, HYBRID_LAYERS),
                            num("mamba_head_dim", false, 1, HYBRID_LAYERS), num("mamba_state_dim", false, 1, HYBRID_LAYERS),
                            num("mamba_num_groups", false, 1, HYBRID_LAYERS), num("mamba_conv_kernel", false, 1, HYBRID_LAYERS),
                            // a pattern's G layers: Megatron-Core's GatedDeltaNet of TransformerConfig's linear_* sizes (MambaLayers.Gdn)
                            num("linear_num_key_heads", false, 1, HYBRID_LAYERS), num("linear_num_value_heads", false, 1, HYBRID_LAYERS),
                            num("linear_key_head_dim", false, 1, HYBRID_LAYERS), num("linear_value_head_dim", false, 1, HYBRID_LAYERS),
                            num("linear_conv_kernel_dim", false, 1, HYBRID_LAYERS))),
            // No upper bound: absurd sizes reach the rules, which report them with overflow-safe arithmetic.
            map("parallelism", false, num(ParallelDim.TP.key(), false, 1, Long.MAX_VALUE), num(ParallelDim.PP.key(), false, 1, Long.MAX_VALUE),
                    num(ParallelDim.DP.key(), false, 1, Long.MAX_VALUE), num(ParallelDim.CP.key(), false, 1, Long.MAX_VALUE),
                    // hybrid sharding (HSDP): ZeRO-3 shards over dp_shard ranks, dp ÷ dp_shard replicas all-reduce
                    num("dp_shard", false, 1, Long.MAX_VALUE),
                    num(ParallelDim.EP.key(), false, 1, Long.MAX_VALUE), num(ParallelDim.ETP.key(), false, 1, Long.MAX_VALUE), f("order", Type.ORDER, false),
                    f("sequence_parallel", Type.BOOL, false), num(ParallelDim.VPP.key(), false, 1, Integer.MAX_VALUE),
                    // an uneven pipeline (Megatron's --decoder-first/last-pipeline-num-layers): Megatron-Core requires each > 0
                    num("first_stage_layers", false, 1, Integer.MAX_VALUE), num("last_stage_layers", false, 1, Integer.MAX_VALUE),
                    // the embedding and the loss counted as layers (Megatron's --account-for-embedding/loss-in-pipeline-split)
                    f("embedding_in_split", Type.BOOL, false), f("loss_in_split", Type.BOOL, false),
                    // a per-stage layout (Megatron-Core's --pipeline-model-parallel-layout, "Et*4|(t*4|)*14tmL"): SpecBuilder#pipelineLayout
                    str("pipeline_layout", false),
                    // tensor-parallel communication overlapped with the matmuls (Megatron's --tp-comm-overlap, torchtitan's async TP)
                    f("tp_comm_overlap", Type.BOOL, false),
                    // Megatron-Core's variable_seq_lengths: every pipeline p2p exchanges its shape first (MtpLayers#SHAPE_EXCHANGE)
                    f("variable_seq_lengths", Type.BOOL, false),
                    // the tp collectives' activations [s, b, h] (Megatron) or [b, s, h] Shard(1) (torchtitan's DTensor plan before
                    // its PR #4121): a copy of b·s·h per collective with bsh (derive/estimate/TpLayoutCopy)
                    en("tp_activation_layout", false, List.of("sbh", "bsh"))),
            map("batch", false, num("micro_batch_size", false, 1, Integer.MAX_VALUE),
                    num("global_batch_size", false, 1, Integer.MAX_VALUE), num("micro_batches", false, 1, Integer.MAX_VALUE)),
            map("optimizer", false, str("type", false), num("zero_stage", false, 0, 3),
                    f("bytes_per_parameter", Type.NUMBER, false), f("distributed", Type.BOOL, false),
                    en("grad_reduce_dtype", false, List.of("fp32", "bf16", "fp16")),
                    // a ZeRO-3 job's gather unit: per layer (FSDP) or per parameter tensor (DeepSpeed's stage 3 of 2021), and
                    // DeepSpeed's stage3_param_persistence_threshold (derive/estimate/ShardedGathers)
                    en("zero3_gather", false, List.of("layer", "tensor")), f("persistence_threshold", Type.NUMBER, false),
                    // model chunk 0's all-gather dispatched in the optimizer step (Megatron's
                    // --overlap-param-gather-with-optimizer-step; derive/estimate/OptimizerStepGather)
                    f("overlap_param_gather_with_step", Type.BOOL, false)),
            en("recompute", false, List.of("none", "selective", "full", "op", "every")),
            // how the elementwise kernels run: fused (Transformer Engine, torch.compile) or eager PyTorch (derive/estimate/EagerKernels)
            en("kernels", false, List.of("fused", "eager")),
            // how Float8 GEMM inputs are scaled: per tensor (Transformer Engine, torchao's tensorwise) or per row (torchao's
            // rowwise recipes, torchtitan's Float8 recipe_name; derive/estimate/Float8Scaling)
            en("fp8_scaling", false, List.of("tensorwise", "rowwise", "rowwise_with_gw_hp")),
            // the parameters kept and all-gathered in fp8 (Megatron's --fp8-param-gather, Megatron-Bridge's fp8_param_gather;
            // derive/estimate/ParamGather)
            f("fp8_param_gather", Type.BOOL, false),
            // the layers an fp8 recipe keeps in bf16 at the start and the end (Megatron's --first-last-layers-bf16 with
            // --num-layers-at-start/end-in-bf16; derive/estimate/LayerPrecision)
            map("fp8_layers_bf16", false, num("start", false, 0, Integer.MAX_VALUE), num("end", false, 0, Integer.MAX_VALUE)),
            num("recompute_every", false, 1, Integer.MAX_VALUE),
            // selective recompute by module (Megatron's --recompute-modules, TransformerConfig recompute_modules;
            // derive/estimate/RecomputeModules): Megatron-Core's names, any other is refused as Megatron refuses it
            new Field("recompute_modules", Type.CHOICES, false, Map.of(), dev.gpulint.spec.RecomputeModule.NAMES, 0, 0),
            // CPU activation offload (Megatron's --cpu-offloading-num-layers): Megatron-Core requires 0 ≤ n < layers
            // model states offloaded to host memory (DeepSpeed's offload_optimizer/offload_param devices, FSDP's CPU offload,
            // Megatron's --optimizer-cpu-offload with --optimizer-offload-fraction)
            map("offload", false, num("activation_layers", false, 0, Integer.MAX_VALUE),
                    en("optimizer", false, List.of("gpu", "cpu", "nvme")), f("optimizer_fraction", Type.FRACTION, false),
                    en("parameters", false, List.of("gpu", "cpu", "nvme"))),
            map("network", false, f("assumed_inter_node", Type.BANDWIDTH, false),
                    f("assumed_intra_node", Type.BANDWIDTH, false)),
            f("step_time", Type.DURATION, false),
            f("env", Type.STRING_MAP, false));

    private Schema() {}

    /** The field at a path below a document's schema: {@code field(JOB, "parallelism", "tp")}. */
    public static Field field(Field root, String... path) {
        Field f = root;
        for (String p : path) {
            f = f.child(p);
            if (f == null) throw new IllegalArgumentException("no field " + String.join(".", path) + " in " + root.name());
        }
        return f;
    }

    public static Field forKind(String kind) {
        return switch (kind) {
            case "cluster" -> CLUSTER;
            case "training_job" -> JOB;
            default -> null;
        };
    }

    static Field f(String name, Type t, boolean req) { return new Field(name, t, req, Map.of(), List.of(), 0, 0); }

    static Field str(String name, boolean req) { return f(name, Type.STRING, req); }

    static Field num(String name, boolean req, long min, long max) {
        return new Field(name, Type.INT, req, Map.of(), List.of(), min, max);
    }

    static Field en(String name, boolean req, List<String> values) {
        return new Field(name, Type.ENUM, req, Map.of(), values, 0, 0);
    }

    static Field map(String name, boolean req, Field... children) {
        return new Field(name, Type.MAP, req, index(children), List.of(), 0, 0);
    }

    /** A list of mappings, each with these fields. */
    static Field list(String name, boolean req, Field... children) {
        return new Field(name, Type.LIST, req, index(children), List.of(), 0, 0);
    }

    private static Map<String, Field> index(Field... fields) {
        Map<String, Field> m = new LinkedHashMap<>();
        Arrays.stream(fields).forEach(x -> m.put(x.name(), x));
        return m;
    }
}
