package dev.gpulint.derive.estimate;

import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;

/**
 * Multi-latent attention (MLA: DeepSeek-V2 §2.1, arXiv:2405.04434; DeepSeek-V3 §2.1.1, arXiv:2412.19437), which replaces a
 * layer's Q, K and V projections by low-rank ones (Hugging Face config.json names; Megatron-Core's flags in brackets):
 *
 * @param qLoraRank    the query's compressed rank d'c ({@code --q-lora-rank}; 0: queries projected from h directly, as
 *                     DeepSeek-V2-Lite and Megatron's default)
 * @param kvLoraRank   the keys' and values' compressed rank dc ({@code --kv-lora-rank})
 * @param qkHeadDim    the per-head query/key dimension without position embedding d_h ({@code --qk-head-dim}, qk_nope_head_dim)
 * @param qkRopeHeadDim the decoupled rotary part d_hR of each query head and the one key all heads share
 *                     ({@code --qk-pos-emb-head-dim}, qk_rope_head_dim)
 * @param vHeadDim     the per-head value dimension ({@code --v-head-dim}, v_head_dim)
 */
public record LatentAttention(long qLoraRank, long kvLoraRank, long qkHeadDim, long qkRopeHeadDim, long vHeadDim) {

    /** Megatron-Core's MLATransformerConfig defaults: no query compression, kv rank 32, heads of 128 + 64 and values of 128. */
    static final long DEFAULT_KV_LORA = 32, DEFAULT_QK = 128, DEFAULT_ROPE = 64, DEFAULT_V = 128;

    public LatentAttention {
        if (qLoraRank < 0 || kvLoraRank < 1 || qkHeadDim < 1 || qkRopeHeadDim < 0 || vHeadDim < 1) {
            throw new IllegalArgumentException("multi-latent attention needs a kv rank and head sizes of at least 1");
        }
    }

    /** A query or key head: d_h + d_hR. */
    public long qkDim() { return qkHeadDim + qkRopeHeadDim; }

    /**
     * Parameters of one layer's attention with a heads and hidden size h: the query down- and up-projections
     * h·d'c + d'c·a·(d_h + d_hR) (without query compression h·a·(d_h + d_hR)), the key/value down-projection with the shared
     * rotary key h·(dc + d_hR), their up-projection dc·a·(d_h + d_v), the output a·d_v·h. (The two latents' RMSNorm weights,
     * d'c + dc, are left out as every other norm is: MemoryModel counts 4h per layer for the norms.) DeepSeek-V3: 187.1M per
     * layer, where 128 full heads of 128 would be 469.8M.
     */
    public double parameters(double h, double a) {
        double q = qLoraRank > 0 ? h * qLoraRank + qLoraRank * a * qkDim() : h * a * qkDim();
        return q + h * (kvLoraRank + qkRopeHeadDim) + kvLoraRank * a * (qkHeadDim + vHeadDim) + a * vHeadDim * h;
    }

    /**
     * The attention core of one layer per token, forward and backward, as Megatron counts it: scores Q·Kᵀ over the query/key
     * dimension and their product with V over the value dimension, 2·s·a·(d_h + d_hR) + 2·s·a·d_v forward, × 3 with the
     * backward: 6·s·a·(d_h + d_hR + d_v) (multi-head attention's 12·s·a·d when all three are d).
     */
    public double coreFlopsPerToken(double seq, double a) {
        return 6.0 * seq * a * (qkDim() + vHeadDim);
    }

    /**
     * Bytes per s·b·h (16-bit) one layer keeps for its backward beyond the shared layer input, split as {replicated over tp,
     * divided by tp}: the latents, which Megatron-Core's down-projections compute whole on every tensor-parallel rank (the
     * query latent and its normalized copy 2·2·d'c, the key/value latent with the rotary key 2·(dc + d_hR) and the normalized
     * latent 2·dc); per head Q and K 2·a·(d_h + d_hR) each, V 2·a·d_v and the output projection's input 2·a·d_v.
     */
    public double[] activationParts(double h, double a) {
        double replicated = (4.0 * qLoraRank + 2.0 * (kvLoraRank + qkRopeHeadDim) + 2.0 * kvLoraRank) / h;
        double split = (4.0 * a * qkDim() + 4.0 * a * vHeadDim) / h;
        return new double[] {replicated, split};
    }

    /**
     * The latent attention a job states, or null: a job that writes its kv_lora_rank (or Megatron's
     * {@code --multi-latent-attention}) has it; each size it leaves out takes Megatron-Core's default, said in {@code as}.
     */
    public static LatentAttention of(Specs.Job j, List<String> as) {
        Specs.Model m = j.model();
        Specs.Attention a = m == null ? null : m.attention();
        if (a == null || a.kvLoraRank() == null || a.kvLoraRank().value() == null) return null;
        StringBuilder taken = new StringBuilder();
        long kv = size(a.kvLoraRank(), DEFAULT_KV_LORA, "kv_lora_rank", taken);
        long q = a.qLoraRank() == null || a.qLoraRank().value() == null ? 0 : Math.max(0, a.qLoraRank().value());
        long qk = size(a.qkHeadDim(), DEFAULT_QK, "qk_head_dim", taken);
        long rope = a.qkRopeHeadDim() == null || a.qkRopeHeadDim().value() == null ? take(DEFAULT_ROPE, "qk_rope_head_dim", taken)
                : Math.max(0, a.qkRopeHeadDim().value());
        long v = size(a.vHeadDim(), DEFAULT_V, "v_head_dim", taken);
        LatentAttention l = new LatentAttention(q, kv, qk, rope, v);
        as.add("multi-latent attention: " + (q > 0 ? "queries through rank " + q : "queries not compressed") + ", keys and values through rank " + kv
                + ", heads of " + qk + " + " + rope + " (rotary) and values of " + v + (taken.length() > 0 ? "; not given, Megatron-Core's default: " + taken : ""));
        return l;
    }

    private static long size(Located<Long> v, long dflt, String name, StringBuilder taken) {
        return v == null || v.value() == null || v.value() < 1 ? take(dflt, name, taken) : v.value();
    }

    private static long take(long dflt, String name, StringBuilder taken) {
        if (taken.length() > 0) taken.append(", ");
        taken.append(name).append(' ').append(dflt);
        return dflt;
    }
}
