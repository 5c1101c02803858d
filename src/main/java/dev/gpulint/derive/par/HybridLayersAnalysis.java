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
    private HybridLayersAnalysis() {}

    public static void job(Resolved.Job r, Facts out) {
        Specs.Job j = r.spec();
        Specs.Model m = j.model();
        Specs.Hybrid h = m == null ? null : m.hybrid();
        if (h == null || h.pattern() == null || h.pattern().value() == null || h.pattern().value().isEmpty() || r.tp() < 1) return;
        String p = h.pattern().value();
        // the pattern's Mamba-2 mixers: its M places less those written G, which Megatron-Core builds as GatedDeltaNet (whether
        // or not the job writes its --linear-* sizes), so MambaMixer's heads and groups asserts never see them
        long mamba = Math.max(0, p.chars().filter(c -> c == 'M').count() - h.gdnLayers());
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
        // a native manifest (no origin) writes model.hybrid.mamba_num_heads and mamba_num_groups; a Hugging Face config n_groups
        String headsKey = flags ? "--mamba-num-heads" : key == null ? "model.hybrid.mamba_num_heads" : "mamba_num_heads",
                groupsKey = flags ? "--mamba-num-groups" : key == null ? "model.hybrid.mamba_num_groups" : "n_groups";
        // a size written with a value SYN002 refused is read at its default, as one not written; the message says which
        Specs.Origin o = j.origin();
        out.add(new HybridLayersFact(r.name(), j.file(), key != null ? key : "the hybrid layer pattern", h.pattern().span(), p.length(),
                layers, m.layers() == null ? null : m.layers().span(), mamba, heads, headsStated, headsKey, groups, groupsStated,
                groupsKey, r.tp(), tpSpan, gdn, keyHeads, keySpan, valueHeads, valueSpan).attentionHeads(value(m.attentionHeads()))
                .leftOut(!headsStated && (o != null && o.isLeftOut(headsKey) || refused(h.heads())),
                        !groupsStated && (o != null && o.isLeftOut(groupsKey) || refused(h.groups())),
                        o != null && keySpan == null && o.isLeftOut("--linear-num-key-heads"),
                        o != null && valueSpan == null && o.isLeftOut("--linear-num-value-heads")));
    }

    /** A native manifest's size written with a value the schema refused: a null value at its span (SpecBuilder). */
    private static boolean refused(Located<Long> v) {
        return v != null && v.value() == null;
    }

    private static long value(Located<Long> v) {
        return v == null || v.value() == null ? 0 : v.value();
    }
}
