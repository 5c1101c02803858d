package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * A hybrid Mamba model's layer pattern and Mamba-2 mixer beside what Megatron-Core checks of them at start-up (PAR014,
 * PAR015): the pattern's decoder layers against the model's layers (megatron/core/ssm/mamba_hybrid_layer_allocation.py,
 * {@code _allocate_override}: "The hybrid override pattern is the wrong length: got N, expected M"), and the mixer's heads
 * and groups against the tensor-parallel size (megatron/core/ssm/mamba_mixer.py, MambaMixer.__init__: "nheads must be
 * evenly divisble by tp_size", "ngroups must be evenly divisible by tp_size"). One fact per job with a hybrid pattern of
 * Mamba-2, attention and MLP layers (Megatron's {@code --hybrid-layer-pattern} / {@code --hybrid-override-pattern}, a
 * NemotronH config.json's or a hybrid catalog entry's {@code hybrid_override_pattern}); a size that is not known is 0. A
 * pattern whose mixers are all gated delta nets ({@code G}) has its key and value heads checked against the tensor-parallel
 * size too: Megatron-Core's GatedDeltaNet (NVIDIA/Megatron-LM megatron/core/ssm/gated_delta_net.py, read at
 * 00caa53af30912914981c86f39db123961678bbd and e867835174aecbc95c2e8e1b1d61b68e05f2c061) gives each rank
 * {@code qk_dim // tp_size} of the query and key, reshaped into heads of the key head dimension, and
 * {@code num_value_heads // tp_size} of dt_bias, A_log, beta and alpha. With context parallelism ({@link #cp}) each mixer's
 * heads a tensor-parallel rank holds are split over cp too (MambaContextParallel's asserts; GatedDeltaNet's equal all-to-all
 * slices), checked once the tp split holds.
 */
public final class HybridLayersFact {
    private final String jobName, file, patternKey, headsKey, groupsKey;
    private final long patternLayers, layers, mambaLayers, heads, groups, tp, gdnLayers, gdnKeyHeads, gdnValueHeads;
    private final boolean headsStated, groupsStated;
    private final Span patternSpan, layersSpan, tpSpan, gdnKeyHeadsSpan, gdnValueHeadsSpan;

    /**
     * @param patternKey    where the pattern is written, as the job's file names it ({@code --hybrid-layer-pattern})
     * @param patternLayers the pattern's decoder layers (before the first '/', without '|')
     * @param layers        the model's layers (Megatron's num_layers), 0 when not known
     * @param mambaLayers   the pattern's Mamba-2 layers (M)
     * @param heads         the mixer's heads as stated, else Megatron's default (2 × hidden ÷ head dimension); 0 when not known
     * @param headsStated   the heads are stated ({@code --mamba-num-heads}, mamba_num_heads), not Megatron's default
     * @param groups        the mixer's groups as stated, else the framework's default 8 ({@link #getGroupsDefaultOwner})
     * @param groupsStated  the groups are stated ({@code --mamba-num-groups}, n_groups)
     * @param tp            the tensor-parallel size (1 when not written)
     * @param gdnLayers     the pattern's gated delta nets (G) whose sizes are read: those of a pattern whose mixers are all G
     *                      (a pattern of both M and G keeps its G sizes unread, Specs.Gdn), else 0
     * @param gdnKeyHeads   their key heads ({@code --linear-num-key-heads}, else TransformerConfig's default 16); 0 without them
     * @param gdnKeyHeadsSpan where the key heads are written; null when they are not
     * @param gdnValueHeads their value heads ({@code --linear-num-value-heads}, else the default 32); 0 without them
     * @param gdnValueHeadsSpan where the value heads are written; null when they are not
     */
    public HybridLayersFact(String jobName, String file, String patternKey, Span patternSpan, long patternLayers, long layers,
                            Span layersSpan, long mambaLayers, long heads, boolean headsStated, String headsKey, long groups,
                            boolean groupsStated, String groupsKey, long tp, Span tpSpan, long gdnLayers, long gdnKeyHeads,
                            Span gdnKeyHeadsSpan, long gdnValueHeads, Span gdnValueHeadsSpan) {
        if (patternLayers < 1 || layers < 0 || mambaLayers < 0 || heads < 0 || groups < 1 || tp < 1 || gdnLayers < 0
                || (gdnLayers > 0 && (gdnKeyHeads < 1 || gdnValueHeads < 1))) {
            throw new IllegalArgumentException("a pattern of one layer at least, groups and tp at least 1, no negative size");
        }
        this.jobName = jobName; this.file = file; this.patternKey = patternKey; this.patternSpan = patternSpan;
        this.patternLayers = patternLayers; this.layers = layers; this.layersSpan = layersSpan; this.mambaLayers = mambaLayers;
        this.heads = heads; this.headsStated = headsStated; this.headsKey = headsKey; this.groups = groups;
        this.groupsStated = groupsStated; this.groupsKey = groupsKey; this.tp = tp; this.tpSpan = tpSpan;
        this.gdnLayers = gdnLayers; this.gdnKeyHeads = gdnKeyHeads; this.gdnKeyHeadsSpan = gdnKeyHeadsSpan;
        this.gdnValueHeads = gdnValueHeads; this.gdnValueHeadsSpan = gdnValueHeadsSpan;
    }

    /** The job's name. */
    public String getJobName() { return jobName; }
    /** The file the job is declared in. */
    public String getFile() { return file; }
    /** Where the pattern is written, as the job's file names it: "--hybrid-layer-pattern", or a model name's hybrid_override_pattern. */
    public String getPatternKey() { return patternKey; }
    /** Where the pattern is written. */
    public Span getPatternSpan() { return patternSpan; }
    /** The pattern's decoder layers: its characters before the first '/' (the MTP blocks), '|' (a stage boundary) not counted. */
    public long getPatternLayers() { return patternLayers; }
    /** The model's layers (Megatron's num_layers), 0 when not known. */
    public long getLayers() { return layers; }
    /** Where the model's layers are written; null when they are not. */
    public Span getLayersSpan() { return layersSpan; }
    /** The pattern's Mamba-2 layers (M): MambaMixer's asserts bind only when there is one. */
    public long getMambaLayers() { return mambaLayers; }
    /** The mixer's heads (nheads): as stated, else MambaMixer's d_inner (2 × hidden) ÷ the head dimension; 0 when not known. */
    public long getHeads() { return heads; }
    /** The heads are stated, not Megatron's default. */
    public boolean isHeadsStated() { return headsStated; }
    /** The key the heads are (or would be) written under: "--mamba-num-heads", "model.mamba_num_heads" (Megatron-Bridge), "model.config.mamba_num_heads" (NeMo 2), "model.hybrid.mamba_num_heads" (a native manifest). */
    public String getHeadsKey() { return headsKey; }
    /** The mixer's B/C groups (ngroups): as stated, else the framework's default 8 (see groupsDefaultOwner). */
    public long getGroups() { return groups; }
    /** The groups are stated, not the framework's default. */
    public boolean isGroupsStated() { return groupsStated; }
    /** The key the groups are (or would be) written under: "--mamba-num-groups", "model.mamba_num_groups" (Megatron-Bridge), "model.config.mamba_num_groups" (NeMo 2), "model.hybrid.mamba_num_groups" (a native manifest). */
    public String getGroupsKey() { return groupsKey; }
    /** The tensor-parallel size (1 when not written). */
    public long getTp() { return tp; }
    /** Where tp is written; null when it is not. */
    public Span getTpSpan() { return tpSpan; }

    /** The pattern's gated delta nets (G) whose sizes are read (its mixers all G), else 0: GatedDeltaNet's split binds only then. */
    public long getGdnLayers() { return gdnLayers; }
    /** Their key heads (linear_num_key_heads): as written, else Megatron-Core TransformerConfig's default 16; 0 without them. */
    public long getGdnKeyHeads() { return gdnKeyHeads; }
    /** Where the key heads are written; null when they are not. */
    public Span getGdnKeyHeadsSpan() { return gdnKeyHeadsSpan; }
    /** The key heads are written ({@code --linear-num-key-heads}), not the default. */
    public boolean isGdnKeyHeadsStated() { return gdnKeyHeadsSpan != null; }
    /** Their value heads (linear_num_value_heads): as written, else TransformerConfig's default 32; 0 without them. */
    public long getGdnValueHeads() { return gdnValueHeads; }
    /** Where the value heads are written; null when they are not. */
    public Span getGdnValueHeadsSpan() { return gdnValueHeadsSpan; }
    /** The value heads are written ({@code --linear-num-value-heads}), not the default. */
    public boolean isGdnValueHeadsStated() { return gdnValueHeadsSpan != null; }

    /** GatedDeltaNet's key heads do not split over tp (checked first: q and k come first in in_proj's output). */
    public boolean isGdnKeyHeadsSplitRefused() { return gdnLayers > 0 && gdnKeyHeads % tp != 0; }
    /** GatedDeltaNet's value heads do not split over tp (the key heads do). */
    public boolean isGdnValueHeadsSplitRefused() { return gdnLayers > 0 && !isGdnKeyHeadsSplitRefused() && gdnValueHeads % tp != 0; }
    /** Where a key-heads finding is: the key heads as written, else tp (the default is refused by the tp written). */
    public Span getGdnKeyHeadsAt() { return gdnKeyHeadsSpan != null ? gdnKeyHeadsSpan : tpSpan; }
    /** Where a value-heads finding is: the value heads as written, else tp. */
    public Span getGdnValueHeadsAt() { return gdnValueHeadsSpan != null ? gdnValueHeadsSpan : tpSpan; }

    private boolean headsLeftOut, groupsLeftOut, gdnKeyHeadsLeftOut, gdnValueHeadsLeftOut;

    /**
     * Which sizes are written with a value their adapter refused (SYN002: 0, a word, past the bound) and so read as not
     * written, at their default: PAR015 names them left out, not "not written".
     */
    public HybridLayersFact leftOut(boolean heads, boolean groups, boolean gdnKeyHeads, boolean gdnValueHeads) {
        headsLeftOut = heads; groupsLeftOut = groups; gdnKeyHeadsLeftOut = gdnKeyHeads; gdnValueHeadsLeftOut = gdnValueHeads;
        return this;
    }
    /** The heads are written but refused (SYN002): the default stands in. */
    public boolean isHeadsLeftOut() { return headsLeftOut; }
    /** The groups are written but refused (SYN002): the default stands in. */
    public boolean isGroupsLeftOut() { return groupsLeftOut; }
    private String groupsDefaultOwner = "Megatron-LM's";

    /**
     * Who sets the groups' default 8 for the job's framework, as PAR015 names it: "Megatron-LM's" ({@code --mamba-num-groups},
     * megatron/training/arguments.py), "NeMo 2 SSMConfig's" (nemo/collections/llm/gpt/model/ssm.py, {@code mamba_num_groups:
     * int = 8}), "Megatron-Bridge MambaModelProvider's" (src/megatron/bridge/models/mamba/mamba_provider.py at 09444632,
     * {@code mamba_num_groups: int = 8}); the value is 8 in all three (derive/par/HybridLayersAnalysis picks it by format).
     */
    public HybridLayersFact groupsDefaultOwner(String owner) { groupsDefaultOwner = owner; return this; }
    /** Who sets the groups' default for the job's framework ("Megatron-LM's", "NeMo 2 SSMConfig's", "Megatron-Bridge MambaModelProvider's"). */
    public String getGroupsDefaultOwner() { return groupsDefaultOwner; }

    /** The GDN key heads are written but refused (SYN002): the default stands in. */
    public boolean isGdnKeyHeadsLeftOut() { return gdnKeyHeadsLeftOut; }
    /** The GDN value heads are written but refused (SYN002): the default stands in. */
    public boolean isGdnValueHeadsLeftOut() { return gdnValueHeadsLeftOut; }

    private String gdnKeyHeadsKey = "--linear-num-key-heads", gdnValueHeadsKey = "--linear-num-value-heads";

    /**
     * The keys the GDN key and value heads are (or would be) written under, as the job's file writes them: a Megatron script's
     * {@code --linear-num-key-heads} (the default), the native manifest's {@code linear_num_key_heads}.
     */
    public HybridLayersFact gdnKeys(String keyHeads, String valueHeads) {
        gdnKeyHeadsKey = keyHeads; gdnValueHeadsKey = valueHeads;
        return this;
    }
    /** The key the GDN key heads are (or would be) written under. */
    public String getGdnKeyHeadsKey() { return gdnKeyHeadsKey; }
    /** The key the GDN value heads are (or would be) written under. */
    public String getGdnValueHeadsKey() { return gdnValueHeadsKey; }

    private long attentionHeads;

    /**
     * The model's attention heads (0: not known), which every tp this rule suggests divides too: Megatron-Core's
     * TransformerConfig raises "num_attention_heads (16) must be a multiple of tensor_model_parallel_size (3)" whatever the
     * layers (PAR005), so a tp that only the mixer accepts still stops the job.
     */
    public HybridLayersFact attentionHeads(long n) { attentionHeads = Math.max(0, n); return this; }
    /** The model's attention heads; 0 when not known. */
    public long getAttentionHeads() { return attentionHeads; }
    /** The attention heads are known: the suggested tp divides them too. */
    public boolean isAttentionHeadsKnown() { return attentionHeads > 0; }

    private long cp = 1;
    private Span cpSpan;

    /**
     * The context-parallel size and where it is written: Megatron-Core splits each tensor-parallel rank's mixer heads further
     * over the cp ranks (each cp rank the whole sequence of its share of the heads). MambaContextParallel
     * (megatron/core/ssm/mamba_context_parallel.py at NVIDIA/Megatron-LM 00caa53af30912914981c86f39db123961678bbd) asserts
     * "nheads must be evenly divisible by tp_size * cp_size", then for the groups a tp rank holds either "cp_size must be evenly
     * divisible by ngroups/tp_size" (fewer groups than cp: each is repeated) or "ngroups must be evenly divisible by tp_size *
     * cp_size"; GatedDeltaNet (gated_delta_net.py at e867835174aecbc95c2e8e1b1d61b68e05f2c061) asserts nothing but all-to-alls
     * each section of in_proj's output in cp equal slices ({@code h_in // world_size}) and reshapes them into whole key and
     * value heads, so key heads ÷ tp and value heads ÷ tp must split over cp.
     */
    public HybridLayersFact cp(long n, Span at) { cp = Math.max(1, n); cpSpan = at; return this; }
    /** The context-parallel size (1 when not written). */
    public long getCp() { return cp; }
    /** Where cp is written; null when it is not. */
    public Span getCpSpan() { return cpSpan; }
    /** The job runs context parallelism and the tp suggested keeps every mixer's heads and groups splitting over it too. */
    public boolean isTpSuggestionKeepsCp() { return cp > 1 && cpFits(getTpAtMost(), cp); }
    /** The Mamba-2 heads one tensor-parallel rank holds (heads ÷ tp; 0 when not known). */
    public long getHeadsPerTp() { return heads / tp; }
    /** The Mamba-2 groups one tensor-parallel rank holds (groups ÷ tp). */
    public long getGroupsPerTp() { return groups / tp; }
    /** The GDN key heads one tensor-parallel rank holds. */
    public long getGdnKeyHeadsPerTp() { return gdnKeyHeads / tp; }
    /** The GDN value heads one tensor-parallel rank holds. */
    public long getGdnValueHeadsPerTp() { return gdnValueHeads / tp; }

    /** Mamba-2's heads and groups split over tp (MambaMixer's asserts hold): its cp asserts come next. */
    private boolean mambaTpSplits() { return mambaLayers > 0 && !isHeadsSplitRefused() && !isGroupsSplitRefused(); }
    /** GatedDeltaNet's key and value heads split over tp: its cp split comes next. */
    private boolean gdnTpSplits() { return gdnLayers > 0 && !isGdnKeyHeadsSplitRefused() && !isGdnValueHeadsSplitRefused(); }

    /** MambaContextParallel's first assert fails: the heads a tp rank holds do not split over cp. */
    public boolean isHeadsCpSplitRefused() { return cp > 1 && mambaTpSplits() && heads > 0 && (heads / tp) % cp != 0; }
    /** The groups a tp rank holds are fewer than cp (each would be repeated): the assert is then "cp_size ... divisible by ngroups/tp_size". */
    public boolean isGroupsFewerThanCp() { return groups / tp < cp; }
    /** MambaContextParallel's group assert fails (the heads one holds): cp and the groups a tp rank holds do not divide one another as it asks. */
    public boolean isGroupsCpSplitRefused() {
        return cp > 1 && mambaTpSplits() && !isHeadsCpSplitRefused() && !groupsSplit(groups / tp, cp);
    }
    /** GatedDeltaNet's key heads a tp rank holds do not split over cp (checked first, as over tp). */
    public boolean isGdnKeyHeadsCpSplitRefused() { return cp > 1 && gdnTpSplits() && (gdnKeyHeads / tp) % cp != 0; }
    /** GatedDeltaNet's value heads a tp rank holds do not split over cp (its key heads do). */
    public boolean isGdnValueHeadsCpSplitRefused() {
        return cp > 1 && gdnTpSplits() && !isGdnKeyHeadsCpSplitRefused() && (gdnValueHeads / tp) % cp != 0;
    }
    /** Where a Mamba-2 cp finding is: cp as written (else tp). */
    public Span getCpAt() { return cpSpan != null ? cpSpan : tpSpan; }
    /** Where a GDN key-heads cp finding is: the key heads as written, else cp. */
    public Span getGdnKeyHeadsCpAt() { return gdnKeyHeadsSpan != null ? gdnKeyHeadsSpan : getCpAt(); }
    /** Where a GDN value-heads cp finding is: the value heads as written, else cp. */
    public Span getGdnValueHeadsCpAt() { return gdnValueHeadsSpan != null ? gdnValueHeadsSpan : getCpAt(); }

    /** MambaContextParallel's group rule: fewer groups than cp ranks each repeated (cp a multiple), else the groups split over cp. */
    private static boolean groupsSplit(long perTp, long c) {
        return perTp >= 1 && (perTp < c ? c % perTp == 0 : perTp % c == 0);
    }

    /** Every mixer of the job splits at tensor-parallel size {@code t} and context-parallel size {@code c} (the tp splits assumed). */
    private boolean cpFits(long t, long c) {
        if (c <= 1) return true;
        if (mambaLayers > 0 && ((heads > 0 && (heads / t) % c != 0) || !groupsSplit(groups / t, c))) return false;
        return gdnLayers == 0 || ((gdnKeyHeads / t) % c == 0 && (gdnValueHeads / t) % c == 0);
    }

    /**
     * The largest divisor of {@code cp} below it that every mixer's heads and groups at the job's tp split over (1 at least):
     * what a cp finding suggests, dividing every count it names. A divisor, so the fix trades PAR015 for nothing else: tp·pp·cp
     * still divides the job's GPUs (dp grows by the same factor) and seq_length stays a multiple of 2 × cp (PAR010); cp 3 for a
     * cp 4 would break both. Searched from {@link #MAX_CP_SUGGESTED} down at most: cp has no bound (the schema's is
     * Long.MAX_VALUE), and a walk down from an absurd cp one by one never ended.
     */
    public long getCpAtMost() {
        for (long c = Math.min(cp - 1, MAX_CP_SUGGESTED); c > 1; c--) if (cp % c == 0 && cpFits(tp, c)) return c;
        return 1;
    }

    /**
     * The largest cp {@link #getCpAtMost} tries: the mixers' sizes are at most 65,536 (Megatron's flags and the native schema
     * bound them so: bind/adapt/HybridLayers.MAX_SIZE, Schema.HYBRID_LAYERS), and a cp above the heads a tensor-parallel rank
     * holds splits none of them.
     */
    static final long MAX_CP_SUGGESTED = 1L << 16;

    /**
     * The largest tensor-parallel size below {@code tp} that divides both GDN head counts, that MambaMixer accepts when the
     * pattern has Mamba-2 layers too ({@link #isBothMixers}), and that divides the attention heads when known: the one tp
     * every mixer and TransformerConfig accept, {@link #getTpAtMost} (1 at least).
     */
    public long getGdnTpAtMost() { return getTpAtMost(); }

    /**
     * The pattern holds both Mamba-2 (M) and gated delta net (G) layers: Megatron-Core builds a MambaMixer for each M and a
     * GatedDeltaNet for each G, and a tp must split both, so each suggestion divides both families' counts.
     */
    public boolean isBothMixers() { return mambaLayers > 0 && gdnLayers > 0; }

    /** What every tp the job's mixers accept divides: the gcd of their counts (Mamba-2 heads when known and groups; GDN key and value heads). */
    private long accepted() {
        long g = 0;
        if (mambaLayers > 0) g = gcd(heads > 0 ? gcd(heads, groups) : groups, g);
        if (gdnLayers > 0) g = gcd(gcd(Math.max(1, gdnKeyHeads), Math.max(1, gdnValueHeads)), g);
        return g == 0 ? 1 : g;
    }

    private long kvHeads, domain;
    private boolean infinityFabric;

    /**
     * The model's key-value heads (query groups; 0: not known): a tp this rule suggests is a divisor or a multiple of them,
     * as PAR005 asks (Megatron-Core places whole query groups on a rank or replicates one over several). A divisor of a tp that
     * the query groups divide need not be either: 6 query groups at tp 12 refuse tp 4.
     */
    public HybridLayersFact kvHeads(long n) { kvHeads = Math.max(0, n); return this; }
    /** The model's key-value heads (query groups); 0 when not known. */
    public long getKvHeads() { return kvHeads; }

    /**
     * The GPUs of the scale-up domain the job's tensor-parallel groups are placed in (a node's NVLink, an NVL72 rack, an
     * MI300X platform's Infinity Fabric: Resolved.Group#domainSize), 0 when not known or there is none: a tp this rule suggests
     * divides it, so that no tensor-parallel group crosses it (PAR002's condition under its default rank order).
     */
    public HybridLayersFact domain(long gpus, boolean infinityFabric) {
        domain = Math.max(0, gpus); this.infinityFabric = infinityFabric;
        return this;
    }
    /** The GPUs of the tensor-parallel groups' scale-up domain; 0 when not known. */
    public long getDomain() { return domain; }
    /** The domain is AMD Infinity Fabric's, not NVLink's. */
    public boolean isInfinityFabric() { return infinityFabric; }
    /**
     * The job's tp itself does not fit its domain (PAR002 fires on it too): the tp suggested is narrowed to a divisor of the
     * domain as well, and the message says so. A tp that fits needs no word: each of its divisors fits too.
     */
    public boolean isDomainBinds() { return domain > 0 && domain % tp != 0; }

    /**
     * What every tp this rule suggests divides: the job's tp (so that tp·pp·cp still divides the GPUs, PAR001, and a
     * sequence-parallel or expert-tensor-parallel size derived from it still splits), every mixer's counts, the attention heads
     * when known (PAR005) and the scale-up domain when known (PAR002).
     */
    private long suggestable() {
        long g = gcd(tp, accepted());
        if (attentionHeads > 0) g = gcd(g, attentionHeads);
        return domain > 0 ? gcd(g, domain) : g;
    }

    /** PAR005's query-group rule holds at {@code t}: the query groups a multiple or a divisor of it (or not known). */
    private boolean kvFits(long t) { return kvHeads <= 0 || kvHeads % t == 0 || t % kvHeads == 0; }

    /**
     * The largest divisor of {@code g} below the job's tp whose query groups fit, the job's cp splitting every mixer there too
     * when one does (1 at least). {@code g} divides the job's tp and is at most 65,536 (the mixers' bound), so the walk is short.
     */
    private long largestBelow(long g, boolean kv) {
        for (long t = Math.min(tp - 1, g); t > 1; t--) if (g % t == 0 && (!kv || kvFits(t)) && cpFits(t, cp)) return t;
        for (long t = Math.min(tp - 1, g); t > 1; t--) if (g % t == 0 && (!kv || kvFits(t))) return t;
        return 1;
    }

    /** The query groups narrowed the tp suggested (PAR005's rule refused a larger one): the message says so. */
    public boolean isKvHeadsBind() { return kvHeads > 0 && largestBelow(suggestable(), false) != getTpAtMost(); }

    /** MambaMixer's first assert fails: the heads are known and tp does not divide them. */
    public boolean isHeadsSplitRefused() { return mambaLayers > 0 && heads > 0 && heads % tp != 0; }
    /** MambaMixer's second assert fails (the first holds): tp does not divide the groups. */
    public boolean isGroupsSplitRefused() { return mambaLayers > 0 && !isHeadsSplitRefused() && groups % tp != 0; }

    /**
     * The largest divisor of the job's tp below it that MambaMixer accepts (it divides the heads when known and the groups),
     * GatedDeltaNet too when the pattern has G layers ({@link #isBothMixers}), that divides the attention heads when known and
     * the scale-up domain when known, and whose query groups fit (PAR005): 1 when no divisor above 1 is such
     * ({@link #isTpSuggested}). A divisor, so the fix trades PAR015 for nothing else: tp·pp·cp still divides the GPUs (dp
     * grows by the same factor, PAR001), a tp group still sits in one domain (PAR002), a sequence that tp divides under
     * sequence parallelism still splits; 12 groups at tp 16 are told tp 4, not 12, which 8-GPU nodes and 16·pp·cp GPUs refuse.
     */
    public long getTpAtMost() {
        return largestBelow(suggestable(), true);
    }

    /** A tp above 1 is suggested; else the message says which count to change, or tp 1 (no tensor parallelism). */
    public boolean isTpSuggested() { return getTpAtMost() > 1; }

    /** {@link #getGroupsFitting} found a count. */
    public boolean isGroupsFitted() { return getGroupsFitting() > 0; }

    /**
     * When no tp above 1 is suggested and MambaMixer refuses the groups: the smallest count above them that the job's tp
     * divides, that divides the Mamba-2 heads (MambaMixer asserts nheads % ngroups == 0) and that the job's cp splits as
     * MambaContextParallel asks; 0 when the heads are not known or none is (the message then says only "a group count tp
     * divides"). Bounded: the multiples of tp up to the heads, at most 65,536 of them.
     */
    public long getGroupsFitting() {
        if (heads <= 0 || heads % tp != 0) return 0;
        for (long g = (groups / tp + 1) * tp; g <= heads; g += tp) if (heads % g == 0 && (cp <= 1 || groupsSplit(g / tp, cp))) return g;
        return 0;
    }

    private static long gcd(long a, long b) {
        while (b != 0) { long t = a % b; a = b; b = t; }
        return a;
    }

    /** The fingerprint identity of the job's hybrid layers. */
    public String identity() { return "training_job:" + jobName + "/hybrid"; }

    @Override public String toString() {
        return "HybridLayersFact[" + jobName + " pattern=" + patternLayers + " layers=" + layers + " mamba=" + mambaLayers + " heads=" + heads
                + " groups=" + groups + " tp=" + tp + " cp=" + cp + " gdn=" + gdnLayers + " gdnKeyHeads=" + gdnKeyHeads + " gdnValueHeads=" + gdnValueHeads + "]";
    }
}
