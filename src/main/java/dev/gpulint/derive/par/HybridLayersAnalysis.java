package dev.gpulint.derive.par;

import dev.gpulint.core.Span;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.estimate.MambaLayers;
import dev.gpulint.facts.HybridLayersFact;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;

/**
 * PAR014's and PAR015's analysis: a hybrid Mamba model's pattern and Mamba-2 mixer beside the layers and the
 * tensor-parallel size Megatron-Core checks them against at start-up ({@link HybridLayersFact}). The mixer's heads and
 * groups not stated are Megatron's own defaults, the ones the estimate takes (MambaLayers: groups 8, heads 2 × hidden ÷ the
 * head dimension 64); heads not stated with the hidden size unknown are not known (0), and no heads check is made. A
 * pattern's G layers have their GatedDeltaNet key and value heads beside tp, as written or TransformerConfig's defaults,
 * beside any M's Mamba-2 mixer (both checked).
 */
public final class HybridLayersAnalysis {
    /**
     * The last pattern text counted and its M places: a derive run makes one of these (Deriver) and the plan's search
     * derives ~1,000 candidate jobs per run that share their job's pattern (one String), so its places are counted once
     * per run, not per candidate. Kept by identity: an equal text of another String is counted again, the same count.
     */
    private String counted;
    private long mPlaces;

    public HybridLayersAnalysis() {}

    /** The places of M in {@code p} ({@link dev.gpulint.spec.HybridPattern#count}), counted once for the same text. */
    private long mPlaces(String p) {
        if (p != counted) {
            mPlaces = dev.gpulint.spec.HybridPattern.count(p, 'M');
            counted = p;
        }
        return mPlaces;
    }

    public void job(Resolved.Job r, Facts out) {
        Specs.Job j = r.spec();
        Specs.Model m = j.model();
        Specs.Hybrid h = m == null ? null : m.hybrid();
        if (h == null || h.pattern() == null || h.pattern().value() == null || h.pattern().value().isEmpty() || r.tp() < 1) return;
        String p = h.pattern().value();
        // the pattern's Mamba-2 mixers: its M places less those written G, which Megatron-Core builds as GatedDeltaNet (whether
        // or not the job writes its --linear-* sizes), so MambaMixer's heads and groups asserts never see them
        long mamba = Math.max(0, mPlaces(p) - h.gdnLayers());
        long layers = value(m.layers());
        long headDim = value(h.headDim()) > 0 ? value(h.headDim()) : MambaLayers.DEFAULT_HEAD_DIM;
        long heads = value(h.heads()), hidden = value(m.hiddenSize());
        boolean headsStated = heads > 0;
        if (!headsStated && hidden > 0) heads = MambaLayers.defaultHeads(hidden, headDim);
        long groups = value(h.groups());
        boolean groupsStated = groups > 0;
        if (!groupsStated) groups = MambaLayers.DEFAULT_GROUPS;
        String key = j.origin() == null ? null : j.origin().key(Specs.Origin.HYBRID_PATTERN);
        boolean flags = key != null && key.startsWith("--");
        Specs.Parallelism par = j.parallelism();
        Span tpSpan = par == null || par.tp() == null ? null : par.tp().span();
        // GatedDeltaNet's heads: read where the pattern holds a G (Specs.Gdn), each not written TransformerConfig's
        // default (MambaLayers.GDN_DEFAULTS, the sizes the estimate prices)
        Specs.Gdn g = h.gdn();
        long gdn = g == null ? 0 : h.gdnLayers();
        long keyHeads = gdn == 0 ? 0 : value(g.keyHeads()) > 0 ? value(g.keyHeads()) : MambaLayers.GDN_DEFAULTS[0];
        long valueHeads = gdn == 0 ? 0 : value(g.valueHeads()) > 0 ? value(g.valueHeads()) : MambaLayers.GDN_DEFAULTS[1];
        Span keySpan = gdn == 0 || g.keyHeads() == null ? null : g.keyHeads().span();
        Span valueSpan = gdn == 0 || g.valueHeads() == null ? null : g.valueHeads().span();
        // the keys as the job's file writes them, written or not: as its adapter recorded them (a Megatron script's flags,
        // Megatron-Bridge's model.mamba_num_heads, NeMo 2's model.config.mamba_num_heads: bind/adapt/HybridLayers), else a
        // Megatron script's flags, else TransformerConfig's fields (a model name's sizes are all stated), under the native
        // manifest's path model.hybrid (no origin)
        Specs.Origin o = j.origin();
        String at = key == null ? "model.hybrid." : "";
        String headsKey = written(o, "mamba_num_heads", flags ? "--mamba-num-heads" : at + "mamba_num_heads"),
                groupsKey = written(o, "mamba_num_groups", flags ? "--mamba-num-groups" : at + "mamba_num_groups"),
                keyHeadsKey = written(o, "linear_num_key_heads", flags ? "--linear-num-key-heads" : at + "linear_num_key_heads"),
                valueHeadsKey = written(o, "linear_num_value_heads", flags ? "--linear-num-value-heads" : at + "linear_num_value_heads");
        // a size written with a value SYN002 refused is read at its default, as one not written; the message says which (an
        // adapter's origin records it, the native manifest's Specs.Hybrid.refused)
        java.util.Set<String> refused = h.refused();
        out.add(new HybridLayersFact(r.name(), j.file(), key != null ? key : "the hybrid layer pattern", h.pattern().span(), p.length(),
                layers, m.layers() == null ? null : m.layers().span(), mamba, heads, headsStated, headsKey, groups, groupsStated,
                groupsKey, r.tp(), tpSpan, gdn, keyHeads, keySpan, valueHeads, valueSpan).attentionHeads(value(m.attentionHeads()))
                // what else a tp suggested must keep: PAR005's query groups, PAR002's scale-up domain (none: not bound)
                .kvHeads(value(m.kvHeads()))
                .domain(r.group() != null && r.group().scaleUpDomain() ? r.group().domainSize() : 0,
                        r.group() != null && r.group().domainKind() == dev.gpulint.spec.DomainKind.INFINITY_FABRIC)
                .cp(r.cp(), par == null || par.cp() == null ? null : par.cp().span())
                .leftOut(!headsStated && leftOut(o, refused, headsKey), !groupsStated && leftOut(o, refused, groupsKey),
                        keySpan == null && leftOut(o, refused, keyHeadsKey), valueSpan == null && leftOut(o, refused, valueHeadsKey))
                .gdnKeys(keyHeadsKey, valueHeadsKey)
                // the groups' default 8, named where the file's framework sets it (PAR015's message)
                .groupsDefaultOwner(groupsDefaultOwner(o)));
    }

    /**
     * Who sets the Mamba-2 groups' default 8 for the job's file: NeMo 2's SSMConfig ({@code mamba_num_groups: int = 8},
     * nemo/collections/llm/gpt/model/ssm.py as the code index stores it; the older SSMConfig's {@code mamba_ssm_ngroups: int = 8}),
     * Megatron-Bridge's MambaModelProvider ({@code mamba_num_groups: int = 8}, src/megatron/bridge/models/mamba/mamba_provider.py
     * at 094446322fad67c029b0b3f82c3f5f866ccd209f; NemotronHModelProvider restates it), else Megatron-LM's
     * {@code --mamba-num-groups} (a native manifest takes Megatron-LM's).
     */
    private static String groupsDefaultOwner(Specs.Origin o) {
        String f = o == null ? null : o.format();
        if (dev.gpulint.spec.Format.NEMO2_RECIPE.display().equals(f)) return "NeMo 2 SSMConfig's";
        if (dev.gpulint.spec.Format.MEGATRON_BRIDGE.display().equals(f)) return "Megatron-Bridge MambaModelProvider's";
        return "Megatron-LM's";
    }

    /** The key the job's adapter recorded for TransformerConfig's field {@code field} (bind/adapt/HybridLayers), else {@code otherwise}. */
    private static String written(Specs.Origin o, String field, String otherwise) {
        String k = o == null ? null : o.key(field);
        return k != null ? k : otherwise;
    }

    /** {@code key} is written with a value its reader refused (SYN002): an adapter's origin says so, or the native manifest's refused keys. */
    private static boolean leftOut(Specs.Origin o, java.util.Set<String> refused, String key) {
        if (o == null) return refused.contains(key.substring(key.lastIndexOf('.') + 1));
        // an adapter's keys, their left-out quantity made once (the plan's search derives this fact for each of tens of
        // thousands of candidate jobs, and Origin.isLeftOut makes and hashes a new string per call); Origin's keys hold no
        // null value, so a key found is one recorded
        String q = LEFT_OUT.get(key);
        return q == null ? o.isLeftOut(key) : o.key(q) != null;
    }

    /**
     * {@link Specs.Origin#leftOut} of each key {@link #job} reads the four sizes under from an adapter's origin: a Megatron
     * script's flags, TransformerConfig's fields bare, and as Megatron-Bridge ({@code model.}) and NeMo 2
     * ({@code model.config.}) write them (bind/adapt/HybridLayers.config records those keys); any other falls back to
     * {@link Specs.Origin#isLeftOut}, the same answer.
     */
    private static final java.util.Map<String, String> LEFT_OUT = java.util.stream.Stream.concat(
                    java.util.stream.Stream.of("--mamba-num-heads", "--mamba-num-groups", "--linear-num-key-heads", "--linear-num-value-heads"),
                    java.util.stream.Stream.of("", "model.", "model.config.").flatMap(at -> java.util.stream.Stream.of("mamba_num_heads",
                            "mamba_num_groups", "linear_num_key_heads", "linear_num_value_heads").map(f -> at + f)))
            .collect(java.util.stream.Collectors.toUnmodifiableMap(k -> k, Specs.Origin::leftOut));

    private static long value(Located<Long> v) {
        return v == null || v.value() == null ? 0 : v.value();
    }
}
