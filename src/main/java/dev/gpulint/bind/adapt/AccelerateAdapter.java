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
 * (ZeRO stage, gradient accumulation, the DeepSpeed file it names), and the newer
 * {@code parallelism_config} (tp, dp_replicate × dp_shard, and cp × sp: Ulysses sequence parallelism splits
 * the sequence over ranks of its own, as context parallelism does).
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
        if (type.equals("FSDP")) fsdp(j, map(root, "fsdp_config"));
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
        }
        sink.draft(j);
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
     * FSDP's sharding as `gpulint plan` reads it: FULL_SHARD = ZeRO stage 3, SHARD_GRAD_OP = 2, NO_SHARD = 0 (and
     * HYBRID_SHARD = 3 inside a node); fsdp_activation_checkpointing = full recompute.
     */
    private static void fsdp(JobDraft j, MappingNode f) {
        if (f == null) return;
        ScalarNode s = scalar(f, "fsdp_sharding_strategy");
        if (s != null && !s.isNull() && j.zeroStage == null) {
            String v = s.text().strip().toUpperCase(java.util.Locale.ROOT);
            long stage = v.startsWith("SHARD_GRAD_OP") || v.equals("2") || v.equals("GRAD") ? 2 : v.startsWith("NO_SHARD") || v.equals("3") ? 0
                    : v.startsWith("FULL_SHARD") || v.startsWith("HYBRID") || v.equals("1") || v.equals("FULL") || v.equals("4") ? 3 : -1;
            if (stage >= 0) j.zeroStage = j.key("fsdp_sharding_strategy", new Located<>(stage, s.span()));
        }
        Located<Boolean> ac = TreeValues.bool(scalar(f, "fsdp_activation_checkpointing"));
        if (ac != null) j.recompute = new Located<>(ac.value() ? "full" : "none", ac.span());
        OffloadSettings.accelerate(j, f);
        UnpricedSettings.fsdpPrefetch(j, f);
    }
}
