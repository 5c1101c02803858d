package dev.gpulint.spec;

import java.util.List;
import java.util.Locale;

/**
 * The modules Megatron-Core's selective recompute can re-run ({@code --recompute-modules}, TransformerConfig
 * {@code recompute_modules}; the choices of megatron/core/transformer/transformer_config.py at its 2025 tags, whose
 * {@code __post_init__} refuses any other: "Invalid choices for recompute_modules"). What each keeps and re-runs is priced by
 * derive/estimate/RecomputeModules.
 */
public enum RecomputeModule {
    CORE_ATTN, MOE_ACT, LAYERNORM, MLA_UP_PROJ, MLP, MOE, SHARED_EXPERTS;

    /** Megatron's names, in its order: what a written module is checked against (SYN002 otherwise). */
    public static final List<String> NAMES = List.of("core_attn", "moe_act", "layernorm", "mla_up_proj", "mlp", "moe", "shared_experts");

    /** As Megatron spells it: "core_attn", "moe_act"... */
    public String id() { return name().toLowerCase(Locale.ROOT); }

    /** The module Megatron names so, or null. */
    public static RecomputeModule of(String id) {
        for (RecomputeModule m : values()) if (m.id().equals(id)) return m;
        return null;
    }

    /** The prefix the readers write before the modules in a job's recompute ("selective:layernorm,moe_act"), as "every:n". */
    public static final String PREFIX = "selective:";

    /** The recompute value a reader writes for selective recompute of {@code names} (Megatron's names, as written). */
    public static String written(List<String> names) {
        return PREFIX + String.join(",", names);
    }
}
