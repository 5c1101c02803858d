package dev.gpulint.facts;

import dev.gpulint.core.Span;
import dev.gpulint.spec.Format;
import java.util.Objects;

/**
 * A training job with its cluster reference resolved, its GPU count worked
 * out, and the model, parallelism and batch numbers the PAR rules compare.
 * Unknown numbers are 0 (a rule that needs one stays silent); tp, pp, cp, ep
 * and virtualPp default to 1 when not written, and are 0 when written as a placeholder
 * ({@code ${TP}}, {@code ???}): products of sizes (gridSize, modelParallelSize, pipelineChunks,
 * expertGrid) are then 0 too.
 */
public final class JobFact {
    String name, file, clusterName, nodeGroupName, clusterGroupNames, gpusPerNodeSource;
    Span nameSpan, clusterSpan, nodeGroupSpan, nodesSpan, gpusPerNodeSpan, parallelismSpan;
    Span tpSpan, ppSpan, dpSpan, cpSpan, epSpan, layersSpan, virtualPpSpan, headsSpan, kvHeadsSpan, expertsSpan;
    Span seqLengthSpan, sequenceParallelSpan, globalBatchSpan, microBatchSpan;
    int ordinal, clusterGroupCount;
    boolean clusterResolved, groupResolved, parallelismStated, sequenceParallel, sequenceParallelStated, sequenceParallelDefaultOff;
    /** The framework whose sequence-parallel default the job runs (derive.estimate.JobInputs#sequenceParallelDefaultFormat). */
    String sequenceParallelDefaultFrom;     // its display name (Format#display), null for gpulint's own
    String format;
    long nodes, gpusPerNode, totalGpus, tp = 1, pp = 1, dp, cp = 1, ep = 1, dpEffective;
    long layersPerVirtualStage;
    /** Expert tensor-parallel size: -1 when not written (experts take tp), 0 when written but unknown. */
    long expertTp = -1;
    Span layersPerVirtualStageSpan, splitSpan;
    boolean embeddingInSplit, lossInSplit;
    /** An uneven pipeline: the first and the last stage's layers, 0 when not sized by hand. */
    long firstStageLayers, lastStageLayers;
    Span firstStageLayersSpan, lastStageLayersSpan;
    boolean microBatchesStated;
    /** The stages are laid out by the job (Megatron's --pipeline-model-parallel-layout, readable or not) or its framework. */
    boolean laidOut;
    /** CPU activation offload: the layers whose activations go to host memory (0: none), and where that is written. */
    long offloadLayers;
    Span offloadSpan;
    /** The model ties its word embedding to the output layer as written or named (a catalog model's flavor), and where. */
    boolean tiedEmbeddings;
    Span tiedSpan;
    /** The model as the job's file names it (torchtitan's [model] name and flavor), else "the model". */
    String modelName = "the model";
    long layers, virtualPp = 1, attentionHeads, kvHeads, experts, seqLength, microBatchSize, globalBatchSize;
    String microBatchKey = "micro_batch_size", globalBatchKey = "global_batch_size", seqLengthKey = "seq_length";
    boolean citesMegatron = true;
    /**
     * The batch per data-parallel rank one pipeline schedule runs when the step runs one per gradient-accumulation step
     * (torchtitan at pp above 1: JobInputs.scheduleBatch), 0 otherwise; the key it is written under and where.
     */
    long scheduleBatch;
    String scheduleBatchKey;
    Span scheduleBatchSpan;
    /** The inference server the job's launch starts ("sglang.launch_server", "vllm serve"), else null: `plan` prices training. */
    String serving;

    JobFact() {}

    public static Builder builder() { return new Builder(); }

    /** Sets fields by name: the derive stage fills a job in several steps. */
    public static final class Builder {
        private final JobFact f = new JobFact();
        public JobFact fact() { return f; }
        public Builder name(String n, Span s, String file, int ordinal) { f.name = n; f.nameSpan = s; f.file = file; f.ordinal = ordinal; return this; }
        /** Where an earlier job of the same name is written; null when this is the first with its name. */
        public Builder firstOfName(Span first) { f.firstNameSpan = first; return this; }
        public Builder cluster(String n, Span s, boolean resolved, int groups, String names) {
            f.clusterName = n; f.clusterSpan = s; f.clusterResolved = resolved; f.clusterGroupCount = groups; f.clusterGroupNames = names; return this;
        }
        public Builder nodeGroup(String n, Span s, boolean resolved) { f.nodeGroupName = n; f.nodeGroupSpan = s; f.groupResolved = resolved; return this; }
        public Builder gpus(long nodes, Span nodesSpan, long gpn, Span gpnSpan, String source, long total) {
            f.nodes = nodes; f.nodesSpan = nodesSpan; f.gpusPerNode = gpn; f.gpusPerNodeSpan = gpnSpan; f.gpusPerNodeSource = source; f.totalGpus = total; return this;
        }
        public Builder parallelism(long tp, long pp, long dp, long cp, long ep, long dpEffective, Span key, boolean stated) {
            f.tp = tp; f.pp = pp; f.dp = dp; f.cp = cp; f.ep = ep; f.dpEffective = dpEffective; f.parallelismSpan = key; f.parallelismStated = stated; return this;
        }
        public Builder spans(Span tp, Span pp, Span dp, Span cp, Span ep) { f.tpSpan = tp; f.ppSpan = pp; f.dpSpan = dp; f.cpSpan = cp; f.epSpan = ep; return this; }
        public Builder layers(long layers, Span s, long vpp, Span vs) { f.layers = layers; f.layersSpan = s; f.virtualPp = vpp; f.virtualPpSpan = vs; return this; }
        /** Megatron's pipeline layout flags: layers per virtual stage, embedding and loss counted as layers (span: the first). */
        public Builder layout(long perVirtualStage, Span s, boolean embedding, boolean loss, Span splitSpan) {
            f.layersPerVirtualStage = perVirtualStage; f.layersPerVirtualStageSpan = s; f.embeddingInSplit = embedding;
            f.lossInSplit = loss; f.splitSpan = splitSpan; return this;
        }
        /** The first and the last stage's layers when sized by hand (0: not), and where each is written. */
        public Builder unevenStages(long first, Span firstSpan, long last, Span lastSpan) {
            f.firstStageLayers = first; f.firstStageLayersSpan = firstSpan; f.lastStageLayers = last; f.lastStageLayersSpan = lastSpan; return this;
        }
        public Builder heads(long heads, Span s, long kv, Span ks) { f.attentionHeads = heads; f.headsSpan = s; f.kvHeads = kv; f.kvHeadsSpan = ks; return this; }
        public Builder experts(long experts, Span s) { f.experts = experts; f.expertsSpan = s; return this; }
        /** The expert tensor-parallel size (etp, --expert-tensor-parallel-size): -1 when not written, 0 when unknown. */
        public Builder expertTp(long etp) { f.expertTp = etp; return this; }
        public Builder sequence(long seqLength, Span s, boolean sp, Span spSpan) { f.seqLength = seqLength; f.seqLengthSpan = s; f.sequenceParallel = sp; f.sequenceParallelSpan = spSpan; return this; }
        public Builder serving(String launcher) { f.serving = launcher; return this; }
        /**
         * Whether sequence_parallel is written, the job's format when not native, whether the default the job runs is off,
         * and the framework whose default that is (a launch passing Megatron-LM's flags runs Megatron-LM's).
         */
        public Builder sequenceSetting(boolean stated, String format, boolean defaultOff, Format defaultFrom) {
            f.sequenceParallelStated = stated; f.format = format; f.sequenceParallelDefaultOff = defaultOff;
            f.sequenceParallelDefaultFrom = defaultFrom == null ? null : defaultFrom.display(); return this;
        }
        /** The job (--pipeline-model-parallel-layout) or its framework lays its pipeline stages out: no even split to judge. */
        public Builder laidOut(boolean laidOut) { f.laidOut = laidOut; return this; }
        /** CPU activation offload of {@code layers} layers (0: none; Megatron's --cpu-offloading-num-layers, offload.activation_layers). */
        public Builder offload(long layers, Span s) { f.offloadLayers = layers; f.offloadSpan = s; return this; }
        /** The model's embedding is tied to its output layer, as written or as its catalog entry says (false: untied or unknown). */
        public Builder tied(boolean tied, Span s) { f.tiedEmbeddings = tied; f.tiedSpan = s; return this; }
        /** The model as the job's file names it (Specs.Origin.MODEL_NAME); null: not named, "the model". */
        public Builder modelName(String name) { if (name != null && !name.isBlank()) f.modelName = name; return this; }
        /** batch.micro_batches is written: PAR006 counts it, not global ÷ (micro × dp). */
        public Builder microBatchesStated(boolean stated) { f.microBatchesStated = stated; return this; }
        /** The keys the job's file writes the micro batch, the global batch and the sequence length under, and whether
         *  messages cite Megatron's checks for its format (derive/par/WrittenKeys). */
        public Builder written(String micro, String global, String seq, boolean citesMegatron) {
            f.microBatchKey = micro; f.globalBatchKey = global; f.seqLengthKey = seq; f.citesMegatron = citesMegatron; return this;
        }
        /** The batch one pipeline schedule runs per data-parallel rank (torchtitan, pp above 1; 0: the step is one schedule). */
        public Builder schedule(long batch, Span s, String key) { f.scheduleBatch = batch; f.scheduleBatchSpan = s; f.scheduleBatchKey = key; return this; }
        public Builder batch(long micro, Span ms, long global, Span gs) { f.microBatchSize = micro; f.microBatchSpan = ms; f.globalBatchSize = global; f.globalBatchSpan = gs; return this; }
    }

    /** The job's name. */
    public String getName() { return name; }
    /** The file that declares it. */
    public String getFile() { return file; }
    /** Where the name is written. */
    public Span getNameSpan() { return nameSpan; }
    /** Its position among the run's facts, in input order (the first of a duplicated name has the smaller one). */
    public int getOrdinal() { return ordinal; }

    Span firstNameSpan;

    /** Where an earlier job of the same name is written (the first of them); null when this is the first with its name. */
    public Span getFirstNameSpan() { return firstNameSpan; }
    /** The cluster the job names; null when it names none. */
    public String getClusterName() { return clusterName; }
    /** Where the cluster is named. */
    public Span getClusterSpan() { return clusterSpan; }
    /** The node group the job names; null when it names none. */
    public String getNodeGroupName() { return nodeGroupName; }
    /** Where the node group is named. */
    public Span getNodeGroupSpan() { return nodeGroupSpan; }
    /** A linted file defines the cluster the job names. */
    public boolean isClusterResolved() { return clusterResolved; }
    /** The job's node group is known (named and found, or the cluster's only group). */
    public boolean isGroupResolved() { return groupResolved; }
    /** Node groups of the job's cluster (0 when the cluster is not found). */
    public int getClusterGroupCount() { return clusterGroupCount; }
    /** Their names, comma-separated: "dgx, hgx". */
    public String getClusterGroupNames() { return clusterGroupNames; }
    /** nodes; 0 when not stated. */
    public long getNodes() { return nodes; }
    /** Where nodes is written. */
    public Span getNodesSpan() { return nodesSpan; }
    /** GPUs per node: the job's gpus_per_node, else its node group's gpu.count; 0 when neither is known. */
    public long getGpusPerNode() { return gpusPerNode; }
    /** Where the GPUs per node come from: the job's gpus_per_node, or the cluster's gpu.count. */
    public Span getGpusPerNodeSpan() { return gpusPerNodeSpan; }
    /** Where that number comes from, as a name: "gpus_per_node of job 'j'", "8 GPUs per node in node group 'dgx' of cluster 'pod'". */
    public String getGpusPerNodeSource() { return gpusPerNodeSource; }
    /** nodes × GPUs per node; 0 when either is unknown. */
    public long getTotalGpus() { return totalGpus; }
    /** Tensor-parallel size (1 when not stated). */
    public long getTp() { return tp; }
    /** Pipeline-parallel size (1 when not stated). */
    public long getPp() { return pp; }
    /** 0 when not stated (derived by the frameworks). */
    public long getDp() { return dp; }
    /** Context-parallel size (1 when not stated). */
    public long getCp() { return cp; }
    /** Expert-parallel size (1 when not stated). */
    public long getEp() { return ep; }
    /** dp as stated, or as the frameworks derive it (GPUs ÷ tp·pp·cp); 0 when neither is known. */
    public long getDpEffective() { return dpEffective; }
    /** Where tp is set; null when not stated. */
    public Span getTpSpan() { return tpSpan; }
    /** Where pp is set; null when not stated. */
    public Span getPpSpan() { return ppSpan; }
    /** Where dp is set; null when not stated. */
    public Span getDpSpan() { return dpSpan; }
    /** Where cp is set; null when not stated. */
    public Span getCpSpan() { return cpSpan; }
    /** Where ep is set; null when not stated. */
    public Span getEpSpan() { return epSpan; }
    /** The parallelism block's key (or the first parallel size an adapter read). */
    public Span getParallelismSpan() { return parallelismSpan; }
    /** tp, pp, cp or dp is stated. */
    public boolean isParallelismStated() { return parallelismStated; }
    /** tp × pp × cp, saturating at Long.MAX_VALUE: the GPUs of one model replica. */
    public long getModelParallelSize() { return Sizes.product(Sizes.product(tp, pp), cp); }
    /** tp × pp × dp × cp, saturating; 0 when dp is not stated. */
    public long getGridSize() { return dp > 0 ? Sizes.product(getModelParallelSize(), dp) : 0; }
    /** dp is stated (dp > 0). */
    public boolean isDpStated() { return dp > 0; }
    /**
     * PAR001's fix: the dp that fills the job's GPUs, GPUs ÷ (tp × pp × cp), when dp is stated, that quotient is
     * whole and differs from it, ep divides it, and a stated global batch stays a whole multiple of micro batch × dp
     * (so the fix does not trade PAR001 for PAR007); 0 when there is no such dp.
     */
    public long getFittingDp() {
        long mp = getModelParallelSize();
        if (dp <= 0 || totalGpus <= 0 || mp <= 0 || mp == Long.MAX_VALUE || totalGpus % mp != 0) return 0;
        long fit = totalGpus / mp;
        if (fit == dp || (ep > 1 && fit % ep != 0)) return 0;
        if (globalBatchSize > 0 && microBatchSize > 0 && globalBatchSize % Sizes.product(microBatchSize, fit) != 0) return 0;
        return fit;
    }
    /** model.layers; 0 when not stated. */
    public long getLayers() { return layers; }
    /** Where model.layers is written. */
    public Span getLayersSpan() { return layersSpan; }
    /** --account-for-embedding-in-pipeline-split: the embedding counts as a layer when splitting over the pipeline. */
    public boolean isEmbeddingInSplit() { return embeddingInSplit; }
    /** --account-for-loss-in-pipeline-split: the loss counts as a layer when splitting over the pipeline. */
    public boolean isLossInSplit() { return lossInSplit; }
    /** Where the first of those flags is written. */
    public Span getSplitSpan() { return splitSpan; }
    /** Layers as the pipeline split counts them: layers, + 1 for the embedding, + 1 for the loss when so flagged; 0 when unknown. */
    public long getSplitLayers() { return layers <= 0 ? 0 : layers + (embeddingInSplit ? 1 : 0) + (lossInSplit ? 1 : 0); }
    /** The first stage's layers when sized by hand (--decoder-first-pipeline-num-layers, first_stage_layers); 0 when not. */
    public long getFirstStageLayers() { return firstStageLayers; }
    /** The last stage's layers when sized by hand (--decoder-last-pipeline-num-layers, last_stage_layers); 0 when not. */
    public long getLastStageLayers() { return lastStageLayers; }
    /** The layers whose activations CPU activation offload keeps in host memory; 0 without offload. */
    public long getOffloadLayers() { return offloadLayers; }
    /** Where the offloaded layers are written (--cpu-offloading-num-layers, offload.activation_layers). */
    public Span getOffloadSpan() { return offloadSpan; }
    /** The model ties its word embedding to the output layer (written, or its catalog entry's; false when untied or unknown). */
    public boolean isTiedEmbeddings() { return tiedEmbeddings; }
    /** Where the tying is written or the catalog model is named; null when not tied. */
    public Span getTiedSpan() { return tiedSpan; }
    /** The model as the job's file names it ("qwen3 0.6B": torchtitan's [model] name and flavor as written), else "the model". */
    public String getModelName() { return modelName; }

    /**
     * The job lays its pipeline stages out itself (Megatron's --pipeline-model-parallel-layout, torchtitan's split points), or
     * its framework splits them by a rule of its own (nanotron, Fast-LLM, gpt-neox's DeepSpeed PipelineModule:
     * Format.splitsItsOwnPipeline), which takes any layer count: the split is its own.
     */
    public boolean isLaidOut() { return laidOut; }

    /** The first or the last stage is sized by hand: Megatron-Core's uneven pipeline split. */
    public boolean isUneven() { return firstStageLayers > 0 || lastStageLayers > 0; }
    /** Where the hand-sized stage is written (the first stage's when both are). */
    public Span getUnevenSpan() { return firstStageLayersSpan != null ? firstStageLayersSpan : lastStageLayersSpan; }
    /** The stages that share the layers not sized by hand: pp less the hand-sized first and last stage. */
    public long getMiddleStages() { return pp - (firstStageLayers > 0 ? 1 : 0) - (lastStageLayers > 0 ? 1 : 0); }
    /** The layers those stages share: layers less the hand-sized first and last stage's (negative when they take more). */
    public long getMiddleLayers() { return layers - firstStageLayers - lastStageLayers; }
    /** "the first stage's 7 and the last stage's 7" / "the first stage's 7": the hand-sized stages as messages name them. */
    public String getUnevenStages() {
        String a = firstStageLayers > 0 ? "the first stage's " + firstStageLayers : null;
        String b = lastStageLayers > 0 ? "the last stage's " + lastStageLayers : null;
        return a == null ? b == null ? "" : b : b == null ? a : a + " and " + b;
    }
    /**
     * With an uneven split and virtual_pp above 1, the first stage (in the order first, middle, last) whose layers do
     * not split into virtual_pp model chunks, as "first", "middle" or "last"; "" when every stage's do (or the split is
     * even, or the middle stages' share is not whole: the other message says so).
     */
    public String getUnevenChunkStage() {
        if (!isUneven() || virtualPp <= 1 || layers <= 0) return "";
        if (firstStageLayers > 0 && firstStageLayers % virtualPp != 0) return "first";
        long stages = getMiddleStages(), middle = getMiddleLayers();
        if (stages > 0 && middle >= 0 && middle % stages == 0 && (middle / stages) % virtualPp != 0) return "middle";
        if (lastStageLayers > 0 && lastStageLayers % virtualPp != 0) return "last";
        return "";
    }
    /** The layers of the stage {@link #getUnevenChunkStage} names; 0 when it names none. */
    public long getUnevenChunkStageLayers() {
        return switch (getUnevenChunkStage()) {
            case "first" -> firstStageLayers;
            case "last" -> lastStageLayers;
            case "middle" -> getMiddleLayers() / getMiddleStages();
            default -> 0;
        };
    }
    /** What is left when the stage {@link #getUnevenChunkStage} names is split into virtual_pp chunks; 0 when it names none. */
    public long getUnevenChunkRemainder() { return virtualPp <= 1 ? 0 : getUnevenChunkStageLayers() % virtualPp; }
    /** --num-layers-per-virtual-pipeline-stage; 0 when not stated. */
    public long getLayersPerVirtualStage() { return layersPerVirtualStage; }
    /** Where --num-layers-per-virtual-pipeline-stage is written. */
    public Span getLayersPerVirtualStageSpan() { return layersPerVirtualStageSpan; }
    /** Virtual pipeline stages per pipeline rank (1 when not stated). */
    public long getVirtualPp() { return virtualPp; }
    /** Where virtual_pp is set. */
    public Span getVirtualPpSpan() { return virtualPpSpan; }
    /** Layers per pipeline chunk must be whole: pp × virtual_pp. */
    public long getPipelineChunks() { return Sizes.product(pp, virtualPp); }
    /** model.attention_heads; 0 when not stated. */
    public long getAttentionHeads() { return attentionHeads; }
    /** Where attention_heads is written. */
    public Span getHeadsSpan() { return headsSpan; }
    /** model.kv_heads (query groups); 0 when not stated. */
    public long getKvHeads() { return kvHeads; }
    /** Where kv_heads is written. */
    public Span getKvHeadsSpan() { return kvHeadsSpan; }
    /** model.experts; 0 when not stated. */
    public long getExperts() { return experts; }
    /** Where experts is written. */
    public Span getExpertsSpan() { return expertsSpan; }
    /** Megatron's expert grid: ep × expert tp × pp must divide the GPU count. */
    public long getExpertGrid() { return Sizes.product(Sizes.product(ep, getExpertTp()), pp); }
    /** The experts' tensor-parallel size: etp when written (0 when unknown), else tp (Megatron-Core's default). */
    public long getExpertTp() { return expertTp >= 0 ? expertTp : tp; }
    /** Whether etp is written (--expert-tensor-parallel-size): the expert grid is then decoupled from tp. */
    public boolean isExpertTpStated() { return expertTp >= 0; }
    /** 2 × cp, the chunks context parallelism cuts a sequence into; saturating (cp near 2^63 does not wrap). */
    public long getContextChunks() { return Sizes.product(2, cp); }
    /** model.seq_length; 0 when not stated. */
    public long getSeqLength() { return seqLength; }
    /** Where seq_length is written. */
    public Span getSeqLengthSpan() { return seqLengthSpan; }
    /** parallelism.sequence_parallel is true. */
    public boolean isSequenceParallel() { return sequenceParallel; }
    /** Where sequence_parallel is set. */
    public Span getSequenceParallelSpan() { return sequenceParallelSpan; }
    /** batch.micro_batch_size; 0 when not stated. */
    public long getMicroBatchSize() { return microBatchSize; }
    /** Where micro_batch_size is written. */
    public Span getMicroBatchSpan() { return microBatchSpan; }

    /**
     * Whether a fix may edit the value at {@code at}: it is the place of at most one of the job's sizes, layers and
     * batches. NeMo's {@code pipeline_model_parallel_size: ${.tensor_model_parallel_size}} makes pp's place tp's
     * value, so an edit of pp there would change tp as well.
     */
    public boolean editable(Span at) {
        if (at == null) return false;
        int n = 0;
        for (Span s : new Span[] {tpSpan, ppSpan, dpSpan, cpSpan, epSpan, virtualPpSpan, layersSpan, microBatchSpan, globalBatchSpan}) {
            if (at.equals(s)) n++;
        }
        return n <= 1;
    }
    /** batch.global_batch_size; 0 when not stated. */
    public long getGlobalBatchSize() { return globalBatchSize; }
    /** Where global_batch_size is written. */
    public Span getGlobalBatchSpan() { return globalBatchSpan; }
    /**
     * micro_batch_size × dp: the samples one micro-batch step takes over all replicas; for a job that runs one pipeline schedule
     * per gradient-accumulation step (torchtitan at pp above 1) the schedule's batch × dp, which its Trainer asserts the global
     * batch a multiple of ({@link #isScheduled}).
     */
    public long getBatchQuantum() { return Sizes.product(isScheduled() ? scheduleBatch : microBatchSize, dpEffective); }

    /**
     * The step is whole pipeline schedules of {@link #getQuantumBatchSize} per data-parallel rank, one per gradient-accumulation
     * step (torchtitan at pp above 1: Trainer.__init__ divides the global batch by local_batch_size × dp, and since its PR #4121
     * num_tokens_per_train_step by num_tokens_per_microbatch_per_dp_rank × num_pp_microbatches × dp, and refuses a remainder).
     */
    public boolean isScheduled() { return scheduleBatch > 0; }
    /** The step is counted in tokens (torchtitan since its PR #4121: its schedule batch is num_pp_microbatches × the micro-batch). */
    public boolean isScheduledInTokens() { return isScheduled() && scheduleBatchKey != null && scheduleBatchKey.contains("num_pp_microbatches"); }
    /** What a data-parallel rank's share of the quantum is: the schedule's batch when {@link #isScheduled}, else the micro batch. */
    public long getQuantumBatchSize() { return isScheduled() ? scheduleBatch : microBatchSize; }
    /** The key {@link #getQuantumBatchSize} is written under. */
    public String getQuantumBatchKey() { return isScheduled() && scheduleBatchKey != null ? scheduleBatchKey : microBatchKey; }
    /** Where {@link #getQuantumBatchSize} is written. */
    public Span getQuantumBatchSpan() { return isScheduled() && scheduleBatchSpan != null ? scheduleBatchSpan : microBatchSpan; }

    /** The most candidates a fit below tries (a layer count is bounded by the binder, this bounds the loop). */
    private static final long MAX_FIT_TRIES = 1 << 16;

    /**
     * PAR004's fix: the pp nearest the stated one by distance whose pp × virtual_pp chunks divide the layers of the
     * pipeline split, and that still fits the GPUs (tp × pp × cp divides them, and a stated global batch stays a
     * multiple of micro batch × the dp that follows) when dp is derived; 0 when dp is stated (pp alone would break
     * the grid's product) or when none is. pp 1 (no pipeline) is a candidate unless the interleaved schedule is on
     * (virtual stages need a pipeline): 61 layers at pp 8 give pp 1 (7 away), not pp 61. Of two equally near, the
     * larger: the stated pp was chosen so that a stage's weights, gradients and optimizer states fit, and the larger
     * pp keeps each stage's share of them at or under the stated one, where the smaller may not fit at all (an
     * out-of-memory failure, against the larger pp's longer bubble, a cost).
     */
    public long getFittingPp() {
        long split = getSplitLayers();
        if (split <= 0 || pp <= 0 || virtualPp <= 0 || dp > 0 || split > MAX_FIT_TRIES) return 0;
        long best = 0, bestD = Long.MAX_VALUE;
        for (long d = virtualPp > 1 ? 2 : 1; d <= split; d++) {
            if (d == pp || split % Sizes.product(d, virtualPp) != 0 || !fitsGpus(d)) continue;
            long dist = Math.abs(d - pp);
            if (dist <= bestD) { best = d; bestD = dist; }     // ascending d: an equal distance moves to the larger
        }
        return best;
    }

    private boolean fitsGpus(long newPp) {
        if (totalGpus <= 0) return true;
        long mp = Sizes.product(Sizes.product(tp, newPp), cp);
        if (mp <= 0 || totalGpus % mp != 0) return false;
        long newDp = totalGpus / mp;
        return globalBatchSize <= 0 || microBatchSize <= 0 || globalBatchSize % Sizes.product(microBatchSize, newDp) == 0;
    }

    /**
     * The multiple of micro batch × dp nearest the stated global batch (the quantum itself when the batch is below it);
     * 0 when two are equally near (the remainder is half the quantum) or there is no quantum.
     */
    public long getFittingGlobalBatch() { return BatchFit.nearest(globalBatchSize, getBatchQuantum()); }

    /**
     * PAR007's fix: the multiple of micro batch × dp nearest the stated global batch whose micro-batches per step keep
     * the pipeline bubble at or below noteAt and below warnAt (PAR006's parameters, which the rule passes); the plain
     * nearest when there is no bubble to keep (pp 1, or micro_batches stated); 0 when none is within
     * {@link BatchFit#MAX_STEPS} multiples above, two are equally near, or there is no quantum.
     */
    public long getFittingGlobalBatch(double noteAt, double warnAt) {
        // a schedule's micro-batches do not change with the global batch (more schedules do): no bubble to keep
        return BatchFit.quiet(globalBatchSize, getBatchQuantum(), pp, virtualPp, microBatchesStated || isScheduled(), noteAt, warnAt);
    }

    public String identity() { return "training_job:" + name; }

    /** sequence_parallel (or the format's own key: --sequence-parallel) is written, true or false. */
    public boolean isSequenceParallelStated() { return sequenceParallelStated; }
    /**
     * sequence_parallel is not written and the job's format turns it off by default (spec.Format#sequenceParallelDefault,
     * the default the plan's layout takes too: Megatron-LM's --sequence-parallel switch, NeMo 1's model.sequence_parallel
     * and NeMo 2's MegatronStrategy argument, both False; gpt-neox, accelerate, nanotron, Fast-LLM, DeepSpeed); false for
     * native manifests and for a format whose default is not known (a Megatron-Bridge override file, NeMo-RL).
     */
    public boolean isSequenceParallelDefaultOff() { return sequenceParallelDefaultOff; }
    /**
     * The framework whose sequence-parallel default the job runs: its format's, or Megatron-LM for a launch (script,
     * Kubernetes, SkyPilot, AWS Batch) whose command passes Megatron-LM's --tensor-model-parallel-size (PAR011's words).
     */
    public Format getSequenceParallelDefaultFrom() { return Format.of(sequenceParallelDefaultFrom); }
    /** {@link #getSequenceParallelDefaultFrom}'s name ("Megatron-LM", "NeMo"). */
    public String getSequenceParallelDefaultFormat() { return getSequenceParallelDefaultFrom().display(); }
    /** The key the micro batch is written under in the job's file ("tokens.micro_batch_size"); "micro_batch_size" for
     *  native manifests, Megatron-LM (its argument's name) and NeMo, and when the format's key is not known. */
    public String getMicroBatchKey() { return microBatchKey; }
    /** The key the global batch is written under ("trainer.train_batch_size"); "global_batch_size" as for the micro batch. */
    public String getGlobalBatchKey() { return globalBatchKey; }
    /** The key the sequence length is written under ("model.seq_len"); "seq_length" as for the micro batch. */
    public String getSeqLengthKey() { return seqLengthKey; }
    /**
     * Messages cite Megatron's own checks for the job's format (Format#citesMegatron): Megatron-LM, NeMo, Megatron-Bridge,
     * native manifests and the launchers that wrap a job; false for nanotron, Levanter, torchtitan, ... which check in
     * their own words.
     */
    public boolean isCitesMegatron() { return citesMegatron; }
    /** The format the job was read from (Megatron-LM, NeMo, ...); null for a native manifest. */
    public String getFormat() { return format; }

    /** The inference server the job's launch starts, as written, or null (a training job, or one not known to serve). */
    public String getServing() { return serving; }
    /** The format the job was read from, as the id rules test: Format.MEGATRON; Format.NATIVE for gpulint's own. */
    public Format getFormatId() { return Format.of(format); }

    /**
     * What the fact says but whose it is: an object equal to another job's when every field but the job's name and its
     * position among the facts ({@code ordinal}) is equal (the spans too). The plan's candidate search inserts each
     * distinct one once per rule session (plan.search.AloneFacts): no rule condition reads the name or the position
     * (CandidateSearchTest), so the rules decide alike on two facts that say the same. CandidateSearchTest changes each
     * field in turn and holds that this sees it.
     */
    public Object saying() { return new Saying(this); }

    private static final class Saying {
        private final JobFact f;

        Saying(JobFact f) { this.f = f; }

        // the sizes a candidate layout changes first: the rest is the job's, the same for every candidate
        @Override public int hashCode() {
            long h = f.tp;
            h = 31 * h + f.pp;
            h = 31 * h + f.dp;
            h = 31 * h + f.cp;
            h = 31 * h + f.ep;
            h = 31 * h + f.virtualPp;
            h = 31 * h + f.microBatchSize;
            h = 31 * h + f.nodes;
            h = 31 * h + (f.sequenceParallel ? 1 : 0);
            return Long.hashCode(h);
        }

        @Override public boolean equals(Object o) {
            if (!(o instanceof Saying s)) return false;
            JobFact a = f, b = s.f;
            return a.tp == b.tp && a.pp == b.pp && a.dp == b.dp && a.cp == b.cp && a.ep == b.ep && a.virtualPp == b.virtualPp
                    && a.microBatchSize == b.microBatchSize && a.globalBatchSize == b.globalBatchSize && a.dpEffective == b.dpEffective
                    && a.sequenceParallel == b.sequenceParallel && a.nodes == b.nodes && a.gpusPerNode == b.gpusPerNode
                    && a.totalGpus == b.totalGpus && a.clusterGroupCount == b.clusterGroupCount
                    && a.layersPerVirtualStage == b.layersPerVirtualStage && a.expertTp == b.expertTp
                    && a.firstStageLayers == b.firstStageLayers && a.lastStageLayers == b.lastStageLayers
                    && a.offloadLayers == b.offloadLayers && a.layers == b.layers && a.attentionHeads == b.attentionHeads
                    && a.kvHeads == b.kvHeads && a.experts == b.experts && a.seqLength == b.seqLength
                    && a.clusterResolved == b.clusterResolved && a.groupResolved == b.groupResolved
                    && a.parallelismStated == b.parallelismStated && a.sequenceParallelStated == b.sequenceParallelStated
                    && a.sequenceParallelDefaultOff == b.sequenceParallelDefaultOff
                    && Objects.equals(a.sequenceParallelDefaultFrom, b.sequenceParallelDefaultFrom) && a.embeddingInSplit == b.embeddingInSplit
                    && a.lossInSplit == b.lossInSplit && a.microBatchesStated == b.microBatchesStated && a.laidOut == b.laidOut
                    && a.scheduleBatch == b.scheduleBatch && Objects.equals(a.scheduleBatchKey, b.scheduleBatchKey)
                    && Objects.equals(a.scheduleBatchSpan, b.scheduleBatchSpan)
                    && a.tiedEmbeddings == b.tiedEmbeddings && a.citesMegatron == b.citesMegatron
                    && Objects.equals(a.file, b.file) && Objects.equals(a.clusterName, b.clusterName)
                    && Objects.equals(a.nodeGroupName, b.nodeGroupName) && Objects.equals(a.clusterGroupNames, b.clusterGroupNames)
                    && Objects.equals(a.gpusPerNodeSource, b.gpusPerNodeSource) && Objects.equals(a.format, b.format)
                    && Objects.equals(a.modelName, b.modelName) && Objects.equals(a.microBatchKey, b.microBatchKey)
                    && Objects.equals(a.globalBatchKey, b.globalBatchKey) && Objects.equals(a.seqLengthKey, b.seqLengthKey)
                    && Objects.equals(a.nameSpan, b.nameSpan) && Objects.equals(a.firstNameSpan, b.firstNameSpan)
                    && Objects.equals(a.clusterSpan, b.clusterSpan) && Objects.equals(a.nodeGroupSpan, b.nodeGroupSpan)
                    && Objects.equals(a.nodesSpan, b.nodesSpan) && Objects.equals(a.gpusPerNodeSpan, b.gpusPerNodeSpan)
                    && Objects.equals(a.parallelismSpan, b.parallelismSpan) && Objects.equals(a.tpSpan, b.tpSpan)
                    && Objects.equals(a.ppSpan, b.ppSpan) && Objects.equals(a.dpSpan, b.dpSpan) && Objects.equals(a.cpSpan, b.cpSpan)
                    && Objects.equals(a.epSpan, b.epSpan) && Objects.equals(a.layersSpan, b.layersSpan)
                    && Objects.equals(a.virtualPpSpan, b.virtualPpSpan) && Objects.equals(a.headsSpan, b.headsSpan)
                    && Objects.equals(a.kvHeadsSpan, b.kvHeadsSpan) && Objects.equals(a.expertsSpan, b.expertsSpan)
                    && Objects.equals(a.seqLengthSpan, b.seqLengthSpan) && Objects.equals(a.sequenceParallelSpan, b.sequenceParallelSpan)
                    && Objects.equals(a.globalBatchSpan, b.globalBatchSpan) && Objects.equals(a.microBatchSpan, b.microBatchSpan)
                    && Objects.equals(a.layersPerVirtualStageSpan, b.layersPerVirtualStageSpan) && Objects.equals(a.splitSpan, b.splitSpan)
                    && Objects.equals(a.firstStageLayersSpan, b.firstStageLayersSpan)
                    && Objects.equals(a.lastStageLayersSpan, b.lastStageLayersSpan) && Objects.equals(a.offloadSpan, b.offloadSpan)
                    && Objects.equals(a.tiedSpan, b.tiedSpan) && Objects.equals(a.serving, b.serving);
        }
    }

    @Override public String toString() {
        return "JobFact[" + name + ", cluster=" + clusterName + "/" + nodeGroupName + ", resolved=" + clusterResolved
                + ", nodes=" + nodes + ", gpusPerNode=" + gpusPerNode + ", total=" + totalGpus + ", tp=" + tp + ", pp=" + pp
                + ", dp=" + dp + "/" + dpEffective + ", cp=" + cp + ", ep=" + ep + ", layers=" + layers + "/" + virtualPp
                + ", heads=" + attentionHeads + "/" + kvHeads + ", experts=" + experts + ", seq=" + seqLength
                + ", sp=" + sequenceParallel + ", batch=" + microBatchSize + "/" + globalBatchSize
                + "]";
    }
}
