package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;
import static dev.gpulint.bind.adapt.TreeValues.text;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import dev.gpulint.spec.Specs.StatedKind;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.Set;

/**
 * Hugging Face accelerate configurations ({@code accelerate config} writes them;
 * {@code accelerate launch --config_file} reads them): {@code num_machines}, {@code num_processes}
 * (the total over all machines; accelerate starts {@code num_processes // num_machines} per
 * machine), {@code main_process_ip}, and the block of the chosen {@code distributed_type}:
 * {@code megatron_lm_config} (tp and pp degrees, sequence parallelism), {@code deepspeed_config}
 * (ZeRO stage, gradient accumulation, the DeepSpeed file it names), {@code fsdp_config} (the sharding strategy,
 * HYBRID_SHARD's shard group the GPUs of one machine), and the newer {@code parallelism_config} (tp, dp_replicate ×
 * dp_shard: HSDP when both are above 1, and cp × sp: Ulysses sequence parallelism splits the sequence over ranks of its
 * own, as context parallelism does).
 */
final class AccelerateAdapter implements FormatAdapter {
    /** The format's name; the CONSIST rules on machines (derive.consist.MachinesAnalysis) know it by this name. */
    static final String FORMAT = Format.ACCELERATE.display();
    private static final Set<String> TYPES = Set.of("NO", "MULTI_GPU", "DEEPSPEED", "FSDP", "MEGATRON_LM", "MULTI_CPU",
            "MULTI_NPU", "MULTI_MLU", "MULTI_MUSA", "MULTI_SDAA", "MULTI_XPU", "MULTI_HPU", "TPU", "XLA");

    @Override public String id() { return "accelerate"; }

    @Override public String displayName() { return FORMAT; }

    @Override public boolean accepts(ForeignDocument doc) {
        MappingNode root = doc.root();
        String type = text(root, "distributed_type");
        return type != null && TYPES.contains(type.strip().toUpperCase(java.util.Locale.ROOT))
                && (root.get("num_processes").isPresent() || root.get("num_machines").isPresent()
                    || root.get("compute_environment").isPresent());
    }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        MappingNode root = doc.root();
        JobDraft j = new JobDraft(FORMAT, doc.file(), root.span());
        j.name = new Located<>(doc.name(), root.entries().isEmpty() ? root.span() : root.entries().get(0).key().span());
        String type = text(root, "distributed_type").strip().toUpperCase(java.util.Locale.ROOT);
        Located<Long> machines = j.key("num_machines", TreeValues.whole(scalar(root, "num_machines")));
        Located<Long> processes = j.key("num_processes", TreeValues.whole(scalar(root, "num_processes")));
        if (processes != null && processes.value() == -1) processes = null;      // -1: every GPU accelerate finds
        j.state("nodes", machines, "num_machines", StatedKind.CONFIG);
        j.state("world", processes, "num_processes", StatedKind.CONFIG);
        if (machines != null && machines.value() > 0) j.nodes = machines;
        if (processes != null && processes.value() > 0) {
            long m = machines == null ? 1 : machines.value();
            if (m > 0 && processes.value() % m == 0) {
                j.gpusPerNode = new Located<>(processes.value() / m, processes.span());
                if (machines == null) j.nodes = new Located<>(1L, processes.span());
                j.gpusPerNodeWhere = "num_processes ÷ num_machines";
            }
        }
        ScalarNode ip = scalar(root, "main_process_ip");
        if (ip != null && !ip.isNull() && !TreeValues.placeholder(ip.text())) {
            j.stated.add(new Specs.Stated("main_process_ip", ip.text(), "main_process_ip", StatedKind.CONFIG, ip.span()));
        }
        if (type.equals("MEGATRON_LM")) {
            MappingNode m = map(root, "megatron_lm_config");
            if (m != null) {
                j.tp = j.key("megatron_lm_tp_degree", TreeValues.whole(scalar(m, "megatron_lm_tp_degree")));
                j.pp = j.key("megatron_lm_pp_degree", TreeValues.whole(scalar(m, "megatron_lm_pp_degree")));
                j.sequenceParallel = TreeValues.bool(scalar(m, "megatron_lm_sequence_parallelism"));
            }
        }
        ScalarNode mp = scalar(root, "mixed_precision");
        if (mp != null && !mp.isNull() && !TreeValues.placeholder(mp.text())) j.dtype = new Located<>(mp.text(), mp.span());
        if (type.equals("DEEPSPEED")) {
            MappingNode d = map(root, "deepspeed_config");
            if (d != null) {
                j.zeroStage = j.key("zero_stage", TreeValues.whole(scalar(d, "zero_stage")));
                ScalarNode ref = scalar(d, "deepspeed_config_file");
                if (ref != null && !ref.isNull() && !TreeValues.placeholder(ref.text())) j.deepspeedRef = new Located<>(ref.text(), ref.span());
            }
        }
        MappingNode par = map(root, "parallelism_config");
        if (par != null) {
            j.tp = j.tp != null ? j.tp : j.key("parallelism_config_tp_size", TreeValues.whole(scalar(par, "parallelism_config_tp_size")));
            j.cp = sequenceSplit(j, TreeValues.whole(scalar(par, "parallelism_config_cp_size")),
                    TreeValues.whole(scalar(par, "parallelism_config_sp_size")));
            Located<Long> rep = TreeValues.whole(scalar(par, "parallelism_config_dp_replicate_size"));
            Located<Long> shard = TreeValues.whole(scalar(par, "parallelism_config_dp_shard_size"));
            long dp = JobDraft.product(rep == null ? new Located<>(1L, null) : rep, shard == null ? new Located<>(1L, null) : shard);
            if ((rep != null || shard != null) && dp > 0) {
                j.dp = j.key(rep != null && shard != null ? "parallelism_config_dp_replicate_size × parallelism_config_dp_shard_size"
                        : rep != null ? "parallelism_config_dp_replicate_size" : "parallelism_config_dp_shard_size",
                        new Located<>(dp, (rep != null ? rep : shard).span()));
            }
            // FSDP2's HSDP: replicas of a dp_shard group (accelerate's ParallelismConfig: fsdp over dp_replicate × dp_shard)
            if (rep != null && rep.value() > 1 && shard != null && shard.value() > 1) j.dpShard = j.key("parallelism_config_dp_shard_size", shard);
        }
        if (type.equals("FSDP")) fsdp(j, map(root, "fsdp_config"));        // after parallelism_config: its HSDP degrees win
        sink.draft(j);
    }

    /**
     * FSDP1's hybrid sharding as accelerate runs it: accelerate hands FSDP no process group or device mesh, so
     * FullyShardedDataParallel builds its own (torch/distributed/fsdp/_init_utils.py,
     * _init_process_group_state_for_hybrid_shard: {@code _init_intra_and_inter_node_groups(default_group,
     * device_count())}): the states shard within each machine's GPUs and the machines replicate them, all-reducing each
     * shard's gradients. The shard group is the GPUs per machine, num_processes ÷ num_machines (parallelism.dp_shard at the
     * strategy's value); on one machine it is every GPU, FULL_SHARD's. HYBRID_SHARD_ZERO2 shards gradients and optimizer
     * states so (ZeRO-2 within the machine: the parameters gathered once per micro-batch for the forward and kept for the
     * backward, derive/estimate HybridSync). FSDP1 only: with {@code fsdp_version: 2} see {@link #fsdp2}.
     */
    private static void hybrid(JobDraft j, ScalarNode s, boolean zero2) {
        String name = zero2 ? "HYBRID_SHARD_ZERO2" : "HYBRID_SHARD";
        if (j.dpShard != null) return;                  // parallelism_config's dp_replicate × dp_shard: FSDP2's mesh
        if (j.tp != null && j.tp.value() > 1 || j.cp != null && j.cp.value() > 1) {
            j.unpriced.add("fsdp_sharding_strategy " + s.text().strip() + " (" + name + ") beside tensor or context parallelism:"
                    + " the machine's shard group is not priced apart; the states shard over every data-parallel rank");
            return;
        }
        if (j.gpusPerNode == null || j.gpusPerNode.value() <= 0) {
            j.unpriced.add("fsdp_sharding_strategy " + s.text().strip() + " (" + name + "): FSDP shards within each machine, but"
                    + " num_processes ÷ num_machines does not give the GPUs per machine: the states shard over every data-parallel rank");
            return;
        }
        long gpn = j.gpusPerNode.value();
        j.dpShard = j.key("fsdp_sharding_strategy", new Located<>(gpn, s.span()));
        j.unpriced.add("fsdp_sharding_strategy " + s.text().strip() + " (" + name + "): FSDP shards the "
                + (zero2 ? "gradients and optimizer states" : "weights, gradients and optimizer states") + " within each machine's "
                + gpn + " GPUs (num_processes ÷ num_machines: torch FSDP's intra-node group) and replicates them across the machines");
    }

    /**
     * The sequence's split: context parallelism (cp) and Ulysses sequence parallelism (sp) each take
     * their own ranks, so accelerate's process count is dp_replicate × dp_shard × tp × cp × sp
     * (ParallelismConfig.total_size). gpulint's grid has one sequence axis: cp × sp, under the key
     * written.
     */
    private static Located<Long> sequenceSplit(JobDraft j, Located<Long> cp, Located<Long> sp) {
        if (sp == null || sp.value() <= 1) return j.key("parallelism_config_cp_size", cp);
        if (cp == null || cp.value() == 1) return j.key("parallelism_config_sp_size", sp);
        long both = JobDraft.product(cp, sp);
        return both <= 0 ? j.key("parallelism_config_cp_size", cp)
                : j.key("parallelism_config_cp_size × parallelism_config_sp_size", new Located<>(both, cp.span()));
    }

    /**
     * FSDP's sharding as `gpulint plan` reads it, the names of accelerate's FSDP_SHARDING_STRATEGY or torch's
     * ShardingStrategy numbers (accelerate's FullyShardedDataParallelPlugin takes {@code ShardingStrategy(int)}:
     * huggingface/accelerate src/accelerate/utils/dataclasses.py): FULL_SHARD (1) = ZeRO stage 3, SHARD_GRAD_OP (2) = 2,
     * NO_SHARD (3) = 0, and the hybrid ones ({@link #hybrid}) HYBRID_SHARD (4) = 3 and HYBRID_SHARD_ZERO2 (5) = 2 within
     * each machine's shard group; fsdp_activation_checkpointing = full recompute.
     */
    private static void fsdp(JobDraft j, MappingNode f) {
        if (f == null) return;
        ScalarNode s = scalar(f, "fsdp_sharding_strategy");
        Located<Long> version = TreeValues.integer(scalar(f, "fsdp_version"));
        if (version != null && version.value() == 2) {
            fsdp2(j, s, scalar(f, "fsdp_reshard_after_forward"), version);
        } else if (s != null && !s.isNull() && j.zeroStage == null) {
            Strategy st = Strategy.of(s.text());
            if (st.stage() >= 0) j.zeroStage = j.key("fsdp_sharding_strategy", new Located<>(st.stage(), s.span()));
            if (st.hybrid()) hybrid(j, s, st.zero2());
        }
        Located<Boolean> ac = TreeValues.bool(scalar(f, "fsdp_activation_checkpointing"));
        if (ac != null) j.recompute = new Located<>(ac.value() ? "full" : "none", ac.span());
        OffloadSettings.accelerate(j, f);
        UnpricedSettings.fsdpPrefetch(j, f);
    }

    /**
     * An FSDP1 strategy's name or number ({@link #fsdp}): its ZeRO stage (-1 when it names none), whether it is hybrid, and
     * whether it is the hybrid ZeRO-2.
     */
    private record Strategy(long stage, boolean hybrid, boolean zero2) {
        static Strategy of(String text) {
            String v = text.strip().toUpperCase(java.util.Locale.ROOT);
            boolean zero2 = v.startsWith("HYBRID_SHARD_ZERO2") || v.startsWith("_HYBRID_SHARD_ZERO2") || v.equals("5");
            boolean hybrid = zero2 || v.startsWith("HYBRID") || v.equals("4");
            long stage = zero2 || v.startsWith("SHARD_GRAD_OP") || v.equals("2") || v.equals("GRAD") ? 2 : v.startsWith("NO_SHARD") || v.equals("3") ? 0
                    : v.startsWith("FULL_SHARD") || hybrid || v.equals("1") || v.equals("FULL") ? 3 : -1;
            return new Strategy(stage, hybrid, zero2);
        }

        /**
         * FSDP2's reshard_after_forward for this FSDP1 name, as accelerate's {@code accelerate to-fsdp2} converts it
         * (src/accelerate/commands/to_fsdp2.py, ARGUMENT_VALUE_MAPPING: FULL_SHARD and HYBRID_SHARD true, SHARD_GRAD_OP,
         * HYBRID_SHARD_ZERO2 and NO_SHARD false): fully_shard always shards, so true is ZeRO stage 3 and false 2; -1 for no name.
         */
        long fsdp2Stage() {
            return stage < 0 ? -1 : stage == 3 ? 3 : 2;
        }
    }

    /**
     * accelerate's FSDP2 ({@code fsdp_version: 2}): fsdp2_prepare_model (src/accelerate/utils/fsdp_utils.py) calls
     * torch's fully_shard with the plugin's {@code reshard_after_forward} and, as its mesh, the accelerator's device mesh
     * at {@code parallelism_config.fsdp_dim_names} when a parallelism_config builds one, else none (one dimension of every
     * rank). So FSDP2 has no intra-node group of FSDP1's HYBRID_SHARD: HSDP is stated by parallelism_config's
     * dp_replicate × dp_shard (read in {@link #bind}), and a hybrid strategy's name adds no shard group; the shard group is
     * parallelism_config's, else every data-parallel rank. The stage is {@code fsdp_reshard_after_forward} (true: ZeRO-3,
     * parameters resharded after the forward; false: ZeRO-2, kept for the backward), else the FSDP1 strategy's name as
     * {@code accelerate to-fsdp2} converts it ({@link Strategy#fsdp2Stage}, said in one assumptions line when the name is
     * hybrid or stands in fsdp_reshard_after_forward, where FSDP2 takes true or false).
     */
    private static void fsdp2(JobDraft j, ScalarNode strategy, ScalarNode reshard, Located<Long> version) {
        // FSDP2 shards per wrapped block with fully_shard: at stage 2 its units kept from forward to backward
        // (derive/estimate ShardedGathers.fullyShard), not Megatron's ZeRO-2 buckets
        j.state(Specs.Origin.FSDP_VERSION, 2, "fsdp_config.fsdp_version", StatedKind.CONFIG, version.span());
        if (j.zeroStage != null) return;
        String hsdp = j.dpShard != null ? "parallelism_config's shard group of " + j.dpShard.value() + " (dp_replicate × dp_shard)"
                : "every data-parallel rank";
        if (reshard != null && !reshard.isNull() && !TreeValues.placeholder(reshard.text())) {
            Boolean b = TreeValues.boolWord(reshard.text());
            if (b != null) {
                j.zeroStage = j.key("fsdp_reshard_after_forward", new Located<>(b ? 3L : 2L, reshard.span()));
                return;
            }
            Strategy st = Strategy.of(reshard.text());
            if (st.fsdp2Stage() < 0) return;
            j.zeroStage = j.key("fsdp_reshard_after_forward", new Located<>(st.fsdp2Stage(), reshard.span()));
            j.unpriced.add("fsdp_config.fsdp_reshard_after_forward: " + reshard.text().strip() + " with fsdp_version 2: FSDP2 takes true or"
                    + " false; read as `accelerate to-fsdp2` converts the name, " + (st.fsdp2Stage() == 3 ? "true (ZeRO-3)" : "false (ZeRO-2)")
                    + ", over " + hsdp + "; write true or false");
            return;
        }
        if (strategy == null || strategy.isNull() || TreeValues.placeholder(strategy.text())) return;
        Strategy st = Strategy.of(strategy.text());
        if (st.fsdp2Stage() < 0) return;
        j.zeroStage = j.key("fsdp_sharding_strategy", new Located<>(st.fsdp2Stage(), strategy.span()));
        if (st.hybrid()) {
            j.unpriced.add("fsdp_config.fsdp_sharding_strategy: " + strategy.text().strip() + " with fsdp_version 2: FSDP2 builds no"
                    + " intra-node shard group (accelerate hands fully_shard parallelism_config's mesh, else one dimension of every"
                    + " rank); read as `accelerate to-fsdp2` converts it, reshard_after_forward " + (st.fsdp2Stage() == 3 ? "true (ZeRO-3)"
                    : "false (ZeRO-2)") + ", over " + hsdp + "; HSDP is parallelism_config_dp_replicate_size × parallelism_config_dp_shard_size");
        }
    }
}
