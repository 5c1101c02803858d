package dev.gpulint.spec;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

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

    /** The modules of {@code ids} as Megatron names them, in Megatron's order; a name it does not know is left out. */
    public static Set<RecomputeModule> of(List<String> ids) {
        Set<RecomputeModule> out = EnumSet.noneOf(RecomputeModule.class);
        for (String id : ids) {
            RecomputeModule m = of(id);
            if (m != null) out.add(m);
        }
        return out;
    }
}
