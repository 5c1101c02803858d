package dev.gpulint.derive.par;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.estimate.FlexDispatch;
import dev.gpulint.derive.estimate.Links;
import dev.gpulint.derive.estimate.MoeShape;
import dev.gpulint.facts.DeepepSwitchFact;
import dev.gpulint.facts.FlexBackendFact;
import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;

/**
 * PAR020's analysis: a job whose files name the deepep backend of the flex dispatcher ({@link FlexBackendFact}) on a node
 * group whose NVLink domain joins more than one node ({@link FlexDispatch#multiNodeNvlink}, the estimate's own test, on the
 * group's {@link Links}). The backend as the job states it: the written one (the binder reads older Megatron-LM's
 * --moe-enable-deepep into it, bind.adapt.Nemo2Moe#enableDeepep), or a dispatcher written as deepep when none is
 * ({@link MoeShape#namesDeepep}). An MoE job only (experts &gt; 1) with the flex dispatcher; an unstated backend is none.
 * A written hybridep makes the same fact, for PAR023 (Megatron-Bridge refuses it on the GPU).
 */
public final class FlexBackendAnalysis {
    private FlexBackendAnalysis() {}

    public static void job(Resolved.Job r, Catalog catalog, Facts out) {
        Specs.Job j = r.spec();
        Specs.Model m = j.model();
        Specs.Moe s = m == null ? null : m.moe();
        Resolved.Group g = r.group();
        if (s == null || g == null || g.gpu() == null || r.gpusPerNode() <= 0) return;
        Located<Long> experts = m.experts();
        if (experts == null || experts.value() == null || experts.value() <= 1) return;
        String d = s.dispatcher() == null || s.dispatcher().value() == null ? null : s.dispatcher().value().strip();
        if (d == null || !d.equalsIgnoreCase("flex") && !d.equalsIgnoreCase("deepep")) return;
        Located<String> named = s.flexBackend() != null ? s.flexBackend() : MoeShape.namesDeepep(s) ? s.dispatcher() : null;
        if (named == null || named.value() == null || named.span() == null) return;
        String backend = named == s.dispatcher() ? "deepep" : named.value();
        FlexDispatch.Backend parsed = FlexDispatch.Backend.parse(backend);
        if (parsed != FlexDispatch.Backend.DEEPEP && parsed != FlexDispatch.Backend.HYBRIDEP) return;
        boolean hybridep = parsed == FlexDispatch.Backend.HYBRIDEP;
        Links links = Links.of(catalog, g.gpu(), g, r.gpusPerNode());
        String key = key(j, named == s.dispatcher() ? Specs.Origin.DISPATCHER : Specs.Origin.FLEX_BACKEND,
                named == s.dispatcher() ? "model.moe.dispatcher" : "model.moe.flex_backend");
        boolean bridge = j.origin() != null && Format.of(j.origin().format()) == Format.MEGATRON_BRIDGE;
        out.add(new FlexBackendFact(r.name(), j.file(), key, hybridep ? "hybridep" : "deepep", g.gpu().name(), g.name(),
                links.domainSize(), links.gpusPerNode(), Math.max(1, r.ep()), FlexDispatch.multiNodeNvlink(links),
                links.gpusPerNode() < FlexDispatch.DEEPEP_NVL_PEERS, bridge, bridgeRefusesDeepep(g.gpu()),
                bridgeTakesHybridep(g.gpu()), bridgeRefusesHybridep(g.gpu()), g.gpu().computeCapability(), named.span()));
    }

    /**
     * Megatron-Bridge's validate_flex_dispatcher_backend (src/megatron/bridge/training/flex_dispatcher_backend.py, called by
     * ConfigContainer.validate) raises ValueError for the deepep backend unless the GPU's compute capability has major
     * version 8 or 9 or its name is NVIDIA B200 / B300 (at 183c5c0203927f025593324d93c459c994384392 by prefix:
     * "DeepEP is supported for Ampere, Hopper, and Blackwell (B200/B300) GPUs. Current GPU: ..."; at
     * 45877615642dfac437286c324df433e1e3e8b301 by the whole name: "... (only B200 and B300) GPUs"). On the catalog's GPUs:
     * refused on GB200 and GB300 (compute capability 10, named NVIDIA GB200 / GB300) and on Volta and Turing (7.x), whatever
     * the NVLink domain. A GPU with no compute capability in the catalog (AMD) is not judged.
     */
    static boolean bridgeRefusesDeepep(Catalog.Gpu gpu) {
        int major = gpu.computeCapabilityMajor();
        if (major < 0 || major == 8 || major == 9) return false;
        String family = gpu.family() == null ? "" : gpu.family().strip();
        return !family.equalsIgnoreCase("B200") && !family.equalsIgnoreCase("B300");
    }

    /**
     * The same check refuses hybridep on the GPU in both versions read: at 45877615 every GPU not named NVIDIA GB200, GB300
     * or B200 ("HybridEP is supported for ['NVIDIA GB200', 'NVIDIA GB300', 'NVIDIA B200']"), at 183c5c02 every GPU whose
     * compute capability is not 8, 9 or 10 ("HybridEP is supported for GB200, GB300 with NVL72 and for Ampere, Hopper, B200
     * and B300 GPUs"). Both refuse a known compute capability outside 8, 9 and 10; the older one also H100, A100 and B300,
     * which the newer takes, so those are not judged. Megatron-Core itself builds the HybridEP buffer without a GPU test
     * (megatron/core/transformer/moe/fused_a2a.py at 02ad939b, init_hybrid_ep_buffer).
     */
    static boolean bridgeRefusesHybridep(Catalog.Gpu gpu) {
        int major = gpu.computeCapabilityMajor();
        return major >= 0 && major != 8 && major != 9 && major != 10;
    }

    /**
     * Megatron-Bridge takes hybridep on the GPU in both versions read (the fix PAR020 names): at 45877615 only the GPUs named
     * NVIDIA GB200, GB300 and B200, at 183c5c02 any of compute capability 8, 9 or 10; {@link #bridgeRefusesHybridep} is where
     * both refuse it (PAR023): compute capability known and not 8, 9 or 10 (Volta, Turing; a project's CC-12 entry).
     */
    static boolean bridgeTakesHybridep(Catalog.Gpu gpu) {
        String family = gpu.family() == null ? "" : gpu.family().strip();
        return family.equalsIgnoreCase("GB200") || family.equalsIgnoreCase("GB300") || family.equalsIgnoreCase("B200");
    }

    /**
     * PAR021's fact ({@link DeepepSwitchFact}): older Megatron-Core's moe_enable_deepep switch on where Megatron-Core's
     * TransformerConfig.__post_init__ raises ValueError: with a dispatcher other than flex (none written is Megatron-Core's
     * default allgather), or beside a written backend it refuses there (Specs.Moe#refusedBesideDeepepSwitch). The binder prices such a job as written and says so in the
     * assumptions (bind.adapt.Nemo2Moe#enableDeepep); this is the finding the run's refusal is.
     */
    public static void refusedSwitch(Resolved.Job r, Facts out) {
        Specs.Job j = r.spec();
        Specs.Moe s = j.model() == null ? null : j.model().moe();
        Located<Boolean> on = s == null ? null : s.enableDeepep();
        if (on == null || !Boolean.TRUE.equals(on.value()) || on.span() == null) return;
        String d = s.dispatcher() == null || s.dispatcher().value() == null ? null : s.dispatcher().value().strip();
        boolean flex = d != null && (d.equalsIgnoreCase("flex") || d.equalsIgnoreCase("deepep"));
        String backend = s.flexBackend() == null || s.flexBackend().value() == null ? null : s.flexBackend().value().strip();
        boolean pairRefused = flex && Specs.Moe.refusedBesideDeepepSwitch(backend);
        if (flex && !pairRefused) return;
        // a dispatcher the format's default fills in (Megatron-LM's allgather) is written under no key: "none written"
        String dispatcherKey = j.origin() == null ? null : j.origin().key(Specs.Origin.DISPATCHER);
        out.add(new DeepepSwitchFact(r.name(), j.file(), key(j, Specs.Origin.ENABLE_DEEPEP, "moe_enable_deepep"), d,
                dispatcherKey, pairRefused ? backend : null, on.span()));
    }

    private static String key(Specs.Job j, String quantity, String otherwise) {
        String k = j.origin() == null ? null : j.origin().key(quantity);
        return k != null ? k : otherwise;
    }
}
