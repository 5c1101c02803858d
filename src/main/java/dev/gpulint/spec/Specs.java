package dev.gpulint.spec;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;
import dev.gpulint.core.Span;
import java.util.List;
import java.util.Map;

/**
 * The bound manifests: what the user wrote, typed, each value with its span. A field that is absent, or whose value
 * was reported as invalid, is null: rules that need it stay silent. {@code toString()} leaves spans out, so the
 * same manifest in YAML and in the DSL prints alike.
 */
public final class Specs {
    private Specs() {}

    /**
     * A cluster. {@code origin} names where a cluster read from another format came from, for
     * messages ("NicConfigurationTemplate 'roce' roceOptimized"); null for a native manifest.
     */
    public record Cluster(Located<String> name, String file, Fabric fabric, List<NodeGroup> nodeGroups, Span span, String origin) {
        /** A native manifest's cluster (no origin). */
        public Cluster(Located<String> name, String file, Fabric fabric, List<NodeGroup> nodeGroups, Span span) {
            this(name, file, fabric, nodeGroups, span, null);
        }

        /** Its node groups as written: folded ones count once per member ({@link NodeGroup#multiplicity()}). */
        public long groupCount() {
            long n = 0;
            for (NodeGroup g : nodeGroups) n += g.multiplicity();
            return n;
        }

        /** Its node groups that have a name, as written (folded ones once per member). */
        public long namedGroupCount() {
            long n = 0;
            for (NodeGroup g : nodeGroups) if (g.name() != null) n += g.multiplicity();
            return n;
        }

        /**
         * The names of its first {@code limit} named node groups as written, in source order: folded node groups
         * by their members' names.
         */
        public List<String> groupNames(int limit) { return FoldedGroups.names(this, limit); }

        /**
         * The cluster with each folded node group as the node groups it stands for ({@link NodeGroup#member}),
         * in source order: what a team's own rules see, since they may count or compare node groups.
         */
        public Cluster unfolded() { return FoldedGroups.unfolded(this); }

        @Override public String toString() {
            return "Cluster[name=" + name + ", fabric=" + fabric + ", nodeGroups=" + nodeGroups + "]";
        }
    }

    /**
     * A fabric. {@code qos} is what a NIC's own QoS settings add (trust state, DSCP-to-priority map),
     * when they were read from a host tool or an operator; null for a native manifest.
     */
    public record Fabric(Located<String> type, Located<String> topology, Located<Double> oversubscription,
                         Located<Boolean> pfcEnabled, Located<Long> pfcPriority, Located<Boolean> ecnEnabled,
                         Located<Long> dscp, Located<Bandwidth> linkSpeed, Span span, NicQos qos) {
        public Fabric(Located<String> type, Located<String> topology, Located<Double> oversubscription,
                      Located<Boolean> pfcEnabled, Located<Long> pfcPriority, Located<Boolean> ecnEnabled,
                      Located<Long> dscp, Located<Bandwidth> linkSpeed, Span span) {
            this(type, topology, oversubscription, pfcEnabled, pfcPriority, ecnEnabled, dscp, linkSpeed, span, null);
        }

        @Override public String toString() {
            return "Fabric[type=" + type + ", topology=" + topology + ", oversubscription=" + oversubscription
                    + ", pfc=" + pfcEnabled + "/" + pfcPriority + ", ecn=" + ecnEnabled + ", dscp=" + dscp
                    + ", linkSpeed=" + linkSpeed + (qos == null ? "" : ", qos=" + qos) + "]";
        }
    }

    /**
     * The QoS a NIC tool sets on the hosts' ports ({@code mlnx_qos}): the priority trust state ("dscp" or
     * "pcp"; null when not set), the DSCP-to-priority map when {@code --dscp2prio} changes it (64 entries,
     * -1 where unknown; null for the default map, priority = DSCP >> 3) and where it is written;
     * {@code pfcFlags} names where PFC's flags are written, for messages ("mlnx_qos --pfc"); {@code partial}:
     * the settings are a host's only, so a setting left out (PFC, ECN, the trust state) is unknown rather than
     * absent, and a DSCP picks a known priority only where they set trust dscp;
     * {@code losslessDscpChosen}: a {@code --dscp2prio set} entry sends a DSCP onto the PFC priority, so
     * whoever wrote it chose the DSCP RoCE is to use, and it is not taken to be NVIDIA's default 26.
     */
    public record NicQos(Located<String> trust, List<Integer> dscpPriority, Span dscpMapSpan, String pfcFlags, boolean partial,
                         boolean losslessDscpChosen) {}

    /**
     * A node group.
     *
     * @param fold null, or the node groups written exactly like this one that it stands for
     *             ({@link dev.gpulint.core.Fold}): its name is then the fold's token
     */
    public record NodeGroup(Located<String> name, Located<Long> count, Gpu gpu, Nvlink nvlink, Pcie pcie,
                            List<Nic> nics, Span span, dev.gpulint.core.Fold fold) {
        public NodeGroup(Located<String> name, Located<Long> count, Gpu gpu, Nvlink nvlink, Pcie pcie, List<Nic> nics, Span span) {
            this(name, count, gpu, nvlink, pcie, nics, span, null);
        }

        /** Standing for the node groups of {@code f}: named by its token, where its own name is written. */
        public NodeGroup folding(dev.gpulint.core.Fold f) {
            return new NodeGroup(new Located<>(f.token(), name.span()), count, gpu, nvlink, pcie, nics, span, f);
        }

        /** How many node groups it stands for: 1, or its fold's size. */
        public int multiplicity() { return fold == null ? 1 : fold.size(); }

        /**
         * Member {@code i} of its fold as a node group of its own: its name, and every place moved to it (a job that
         * names one of a fleet's node groups resolves to it). Itself when it stands for no other.
         */
        public NodeGroup member(int i) { return FoldedGroups.member(this, i); }

        @Override public String toString() {
            return "NodeGroup[name=" + name + ", count=" + count + ", gpu=" + gpu + ", nvlink=" + nvlink
                    + ", pcie=" + pcie + ", nics=" + nics + "]";
        }
    }

    /**
     * @param clockLimitMhz the SM clock the GPUs are locked to or capped at, MHz ({@code nvidia-smi -lgc}'s argument)
     * @param powerLimitW   the board power cap, watts ({@code nvidia-smi -pl}'s argument)
     */
    public record Gpu(Located<String> model, Located<Long> count, Located<DataSize> memory, Located<Long> clockLimitMhz,
                      Located<Long> powerLimitW) {
        public Gpu(Located<String> model, Located<Long> count, Located<DataSize> memory) { this(model, count, memory, null, null); }
    }

    public record Nvlink(Located<Boolean> nvswitch, Located<String> bridge, Located<Bandwidth> bandwidth,
                         Located<String> direction, Located<Long> domainSize, Span keySpan) {
        @Override public String toString() {
            return "Nvlink[switch=" + nvswitch + ", bridge=" + bridge + ", bandwidth=" + bandwidth
                    + ", direction=" + direction + ", domainSize=" + domainSize + "]";
        }
    }

    public record Pcie(Located<Long> generation, Located<Long> lanes, Located<Bandwidth> bandwidth,
                       Located<String> direction) {}

    public record Nic(Located<String> model, Located<Long> count, Located<Bandwidth> speed,
                      Located<String> protocol, Located<Boolean> gpudirectRdma, Span span) {
        @Override public String toString() {
            return "Nic[model=" + model + ", count=" + count + ", speed=" + speed + ", protocol=" + protocol
                    + ", gpudirectRdma=" + gpudirectRdma + "]";
        }
    }

    /**
     * The most environment variables of one job gpulint checks (launches set dozens; 100,000 `mpirun -x`
     * would cost a did-you-mean each). The binders keep the first ones and report how many were left out.
     */
    public static final int MAX_ENV = 1000;

    /**
     * The NCCL004 note at the first environment variable past {@link #MAX_ENV} (at {@code where}): how many were
     * left out, for a native manifest and for a job any adapter read alike.
     */
    public static Finding envLeftOut(Span where, int total, String firstLeftOut, String identity) {
        return new Finding("NCCL004", Level.NOTE, where, "this job sets " + total + " environment variables: gpulint checks the first "
                + MAX_ENV + " and left out the other " + (total - MAX_ENV) + ", from '" + Quantities.shortText(firstLeftOut)
                + "' on (real launches set dozens; check the rest by hand or split the list)", List.of(), identity);
    }

    /**
     * A training job. Each of the last six is null when not written (in a native manifest {@code origin} always is).
     *
     * @param origin         the format another reader read the job from, and where it states each number (null: a native
     *                       manifest)
     * @param recompute      activation recomputation as written ({@link Recomputation}: the granularity, none, selective, full,
     *                       op or every, Megatron {@code --recompute-granularity}, NeMo {@code activations_checkpoint_granularity},
     *                       FSDP activation checkpointing; selective recompute's modules; every's n)
     * @param offload        the activations and model states it keeps in host memory (null: no CPU offload)
     * @param kernels        how its elementwise kernels run ({@code kernels}: "fused" or "eager")
     * @param fp8Scaling     how its Float8 GEMM inputs are scaled ({@code fp8_scaling}: "tensorwise", "rowwise" or
     *                       "rowwise_with_gw_hp", torchao's recipes)
     * @param fp8ParamGather its parameters are all-gathered in fp8 ({@code fp8_param_gather}: Megatron's
     *                       {@code --fp8-param-gather}, Megatron-Bridge's {@code mixed_precision.fp8_param_gather})
     */
    public record Job(Located<String> name, String file, Located<String> cluster, Located<String> nodeGroup,
                      Located<Long> nodes, Located<Long> gpusPerNode, Model model, Parallelism parallelism,
                      Batch batch, Optimizer optimizer, Network network, Located<Double> stepTime,
                      Map<String, Located<String>> env, Span span, Origin origin, Recomputation recompute,
                      Offload offload, Located<String> kernels, Located<String> fp8Scaling, Located<Boolean> fp8ParamGather,
                      Bf16Layers fp8LayersBf16) {

        /**
         * Where another format stated {@code quantity} of this job ("optim.grad_sync_dtype: bf16", "--model ..."), or null
         * when it was written in a native manifest or nowhere: each adapter states a quantity once.
         */
        public String statedWhere(String quantity) {
            if (origin == null) return null;
            for (Stated s : origin.stated()) if (s.quantity().equals(quantity)) return s.where();
            return null;
        }

        /** The same job, running on another cluster and node group (a link found for a job of another format). */
        public Job onCluster(Located<String> c, Located<String> g) {
            return new Job(name, file, c, g, nodes, gpusPerNode, model, parallelism, batch, optimizer, network, stepTime,
                    env, span, origin, recompute, offload, kernels, fp8Scaling, fp8ParamGather, fp8LayersBf16);
        }

        @Override public String toString() {
            return "Job[name=" + name + ", cluster=" + cluster + ", nodeGroup=" + nodeGroup + ", nodes=" + nodes
                    + ", gpusPerNode=" + gpusPerNode + ", model=" + model + ", parallelism=" + parallelism
                    + ", batch=" + batch + ", optimizer=" + optimizer + ", network=" + network
                    + ", stepTime=" + stepTime + ", env=" + env + "]";
        }
    }

    /**
     * A model. The shape `gpulint plan` reads ({@code ffnHiddenSize}, {@code vocabSize}, {@code headDim},
     * {@code gatedMlp}, {@code tiedEmbeddings}, {@code topK}) is null when not written: the plan takes its documented
     * default. {@code unknown} names the sizes that are written but whose value is not known (out of the schema's
     * bounds, SYN002 at the value; in a native manifest also a placeholder) by their manifest path ("model.vocab_size",
     * "model.moe.expert_ffn_hidden_size"): such a size is null like an absent one, but it takes no default, so the
     * estimate says the job cannot be priced rather than pricing a size the file does not say. {@code crossEntropy}: the
     * cross-entropy the loss runs as written ({@link CrossEntropy}); null: not written (Megatron-Core's native loss).
     */
    public record Model(Located<Double> parameters, Located<String> dtype, Located<Long> layers,
                        Located<Long> attentionHeads, Located<Long> kvHeads, Located<Long> hiddenSize,
                        Located<Long> seqLength, Located<Long> experts, Located<Double> expertParameters,
                        Located<Long> ffnHiddenSize, Located<Long> vocabSize, Located<Long> headDim,
                        Located<Boolean> gatedMlp, Located<Boolean> tiedEmbeddings, Located<Long> topK, Moe moe,
                        Attention attention, java.util.Set<String> unknown, Hybrid hybrid, Mtp mtp,
                        Located<CrossEntropy> crossEntropy) {
        public Model {
            unknown = unknown == null ? java.util.Set.of() : java.util.Collections.unmodifiableSet(new java.util.TreeSet<>(unknown));
        }

        /** The size at {@code path} ("model.vocab_size") is written with a value that is not known. */
        public boolean isUnknown(String path) { return unknown.contains(path); }

        @Override public String toString() {
            return "Model[parameters=" + parameters + ", dtype=" + dtype + ", layers=" + layers + ", attentionHeads=" + attentionHeads
                    + ", kvHeads=" + kvHeads + ", hiddenSize=" + hiddenSize + ", seqLength=" + seqLength + ", experts=" + experts
                    + ", expertParameters=" + expertParameters + ", ffnHiddenSize=" + ffnHiddenSize + ", vocabSize=" + vocabSize
                    + ", headDim=" + headDim + ", gatedMlp=" + gatedMlp + ", tiedEmbeddings=" + tiedEmbeddings + ", topK=" + topK
                    + ", moe=" + moe + ", attention=" + attention + (unknown.isEmpty() ? "" : ", unknown=" + unknown)
                    + (hybrid == null ? "" : ", hybrid=" + hybrid) + (mtp == null ? "" : ", mtp=" + mtp)
                    + (crossEntropy == null ? "" : ", crossEntropy=" + crossEntropy) + "]";
        }
    }

    /**
     * The parallel sizes. {@code unknown} names the sizes that are written but whose value is not
     * known (a placeholder such as {@code ${TP}} or {@code ???}): tp, pp, dp, cp, ep, virtual_pp.
     * Such a size is null like an absent one, but it does not take the default: rules that need
     * it stay silent. Megatron's pipeline layout: {@code layersPerVirtualStage}
     * ({@code --num-layers-per-virtual-pipeline-stage}), and {@code embeddingInSplit} /
     * {@code lossInSplit} ({@code --account-for-embedding-in-pipeline-split},
     * {@code --account-for-loss-in-pipeline-split}: each counts as one more layer when splitting).
     * An uneven split: {@code firstStageLayers} / {@code lastStageLayers} (Megatron's
     * {@code --decoder-first-pipeline-num-layers} / {@code --decoder-last-pipeline-num-layers}, NeMo's
     * {@code num_layers_in_first_pipeline_stage} / {@code num_layers_in_last_pipeline_stage}, the native
     * {@code first_stage_layers} / {@code last_stage_layers}): the transformer layers of the first and last stage,
     * the other stages sharing the rest evenly. {@code stageLayers}: the transformer blocks of every pipeline stage in
     * Megatron's order (stage s on rank s mod pp, pp × vpp of them), when the job lays the stages out layer by layer
     * (Megatron's {@code --pipeline-model-parallel-layout}, read by {@link PipelineLayout}; torchtitan's
     * {@code pipeline_parallel_split_points}, whose last stage is -1: the layers the others leave); null otherwise.
     * {@code variableSeqLengths}: Megatron-Core's ModelParallelConfig.variable_seq_lengths (Megatron-LM's
     * {@code --variable-seq-lengths}, Megatron-Bridge's and NeMo 2's model config key): every pipeline p2p exchanges the
     * tensor's shape first (derive.estimate.MtpLayers#SHAPE_EXCHANGE); null when not written (False). Read from the
     * frameworks and the native manifest's {@code parallelism.variable_seq_lengths}. {@code layout}: the native manifest's
     * {@code parallelism.pipeline_layout} as read, for the plan's words on it (PipelineLayout#besideSegments, #mtpSplitNote,
     * #lossSplitNote); the adapters word theirs at the key the file writes (Origin#unpriced), so null for them, and null when
     * none is written or it was refused.
     */
    /** In {@link Parallelism#unknown}: a per-layer pipeline layout is written, but not as text gpulint can read (a placeholder, or text that does not parse). */
    public static final String PIPELINE_LAYOUT = "pipeline_layout";

    public record Parallelism(Located<Long> tp, Located<Long> pp, Located<Long> dp, Located<Long> cp,
                              Located<Long> ep, Located<List<ParallelDim>> order, Located<Boolean> sequenceParallel,
                              Located<Long> virtualPp, Span keySpan, java.util.Set<String> unknown,
                              Located<Long> layersPerVirtualStage, Located<Boolean> embeddingInSplit,
                              Located<Boolean> lossInSplit, Located<Long> expertTp,
                              Located<Long> firstStageLayers, Located<Long> lastStageLayers,
                              Located<Long> dpShard, Located<Long> dpReplicate, Located<List<Long>> stageLayers,
                              Located<Boolean> tpCommOverlap, Located<String> tpActivationLayout,
                              Located<Boolean> variableSeqLengths, Located<PipelineLayout> layout) {
        public Parallelism {
            unknown = unknown == null ? java.util.Set.of() : java.util.Set.copyOf(unknown);
        }

        /**
         * Without a stated tensor-parallel communication overlap ({@code tpCommOverlap}: Megatron's {@code --tp-comm-overlap},
         * NeMo's {@code ub_tp_comm_overlap}, torchtitan's {@code enable_async_tensor_parallel}, the native
         * {@code parallelism.tp_comm_overlap}; null when not written: the estimate's TpOverlap takes the format's default).
         */
        public Parallelism(Located<Long> tp, Located<Long> pp, Located<Long> dp, Located<Long> cp, Located<Long> ep,
                           Located<List<ParallelDim>> order, Located<Boolean> sequenceParallel, Located<Long> virtualPp, Span keySpan,
                           java.util.Set<String> unknown, Located<Long> layersPerVirtualStage, Located<Boolean> embeddingInSplit,
                           Located<Boolean> lossInSplit, Located<Long> expertTp, Located<Long> firstStageLayers, Located<Long> lastStageLayers,
                           Located<Long> dpShard, Located<Long> dpReplicate, Located<List<Long>> stageLayers) {
            this(tp, pp, dp, cp, ep, order, sequenceParallel, virtualPp, keySpan, unknown, layersPerVirtualStage, embeddingInSplit,
                    lossInSplit, expertTp, firstStageLayers, lastStageLayers, dpShard, dpReplicate, stageLayers, null, null, null, null);
        }

        /**
         * Without hybrid sharding (HSDP): ZeRO/FSDP, when on, shards over the whole of dp. With it, {@code dpShard} (the
         * native manifest's {@code parallelism.dp_shard}, torchtitan's data_parallel_shard_degree beside a replicate
         * degree above 1) is the group the states shard over and dp ÷ dpShard the replicas; {@code dpReplicate} is the
         * replicate degree when only it is written (torchtitan's shard degree -1: the rest of dp). The stages are not laid
         * out layer by layer.
         */
        public Parallelism(Located<Long> tp, Located<Long> pp, Located<Long> dp, Located<Long> cp, Located<Long> ep,
                           Located<List<ParallelDim>> order, Located<Boolean> sequenceParallel, Located<Long> virtualPp, Span keySpan,
                           java.util.Set<String> unknown, Located<Long> layersPerVirtualStage, Located<Boolean> embeddingInSplit,
                           Located<Boolean> lossInSplit, Located<Long> expertTp, Located<Long> firstStageLayers, Located<Long> lastStageLayers,
                           Located<Long> dpShard, Located<Long> dpReplicate) {
            this(tp, pp, dp, cp, ep, order, sequenceParallel, virtualPp, keySpan, unknown, layersPerVirtualStage, embeddingInSplit,
                    lossInSplit, expertTp, firstStageLayers, lastStageLayers, dpShard, dpReplicate, null);
        }

        /** Without hybrid sharding: ZeRO/FSDP, when on, shards over all of dp. */
        public Parallelism(Located<Long> tp, Located<Long> pp, Located<Long> dp, Located<Long> cp, Located<Long> ep,
                           Located<List<ParallelDim>> order, Located<Boolean> sequenceParallel, Located<Long> virtualPp, Span keySpan,
                           java.util.Set<String> unknown, Located<Long> layersPerVirtualStage, Located<Boolean> embeddingInSplit,
                           Located<Boolean> lossInSplit, Located<Long> expertTp, Located<Long> firstStageLayers, Located<Long> lastStageLayers) {
            this(tp, pp, dp, cp, ep, order, sequenceParallel, virtualPp, keySpan, unknown, layersPerVirtualStage, embeddingInSplit,
                    lossInSplit, expertTp, firstStageLayers, lastStageLayers, null, null);
        }

        /** Without an uneven first or last stage: the layers split evenly over the stages. */
        public Parallelism(Located<Long> tp, Located<Long> pp, Located<Long> dp, Located<Long> cp, Located<Long> ep,
                           Located<List<ParallelDim>> order, Located<Boolean> sequenceParallel, Located<Long> virtualPp, Span keySpan,
                           java.util.Set<String> unknown, Located<Long> layersPerVirtualStage, Located<Boolean> embeddingInSplit,
                           Located<Boolean> lossInSplit, Located<Long> expertTp) {
            this(tp, pp, dp, cp, ep, order, sequenceParallel, virtualPp, keySpan, unknown, layersPerVirtualStage, embeddingInSplit,
                    lossInSplit, expertTp, null, null);
        }

        /** The size written for a dimension, or null when it is not written. */
        public Located<Long> size(ParallelDim d) {
            return switch (d) {
                case TP -> tp; case CP -> cp; case EP -> ep; case DP -> dp; case PP -> pp;
                case ETP -> expertTp; case VPP -> virtualPp;
            };
        }

        /** The dimension's key was written with a value that could not be read (it then binds as absent). */
        public boolean isUnknown(ParallelDim d) { return isUnknown(d.key()); }

        /** The first or the last stage is sized by hand. */
        public boolean uneven() { return firstStageLayers != null || lastStageLayers != null; }

        /** Without an expert tensor-parallel size (etp): experts take tp, as Megatron does by default. */
        public Parallelism(Located<Long> tp, Located<Long> pp, Located<Long> dp, Located<Long> cp, Located<Long> ep,
                           Located<List<ParallelDim>> order, Located<Boolean> sequenceParallel, Located<Long> virtualPp, Span keySpan,
                           java.util.Set<String> unknown, Located<Long> layersPerVirtualStage, Located<Boolean> embeddingInSplit,
                           Located<Boolean> lossInSplit) {
            this(tp, pp, dp, cp, ep, order, sequenceParallel, virtualPp, keySpan, unknown, layersPerVirtualStage, embeddingInSplit,
                    lossInSplit, null);
        }

        public Parallelism(Located<Long> tp, Located<Long> pp, Located<Long> dp, Located<Long> cp, Located<Long> ep,
                           Located<List<ParallelDim>> order, Located<Boolean> sequenceParallel, Located<Long> virtualPp, Span keySpan,
                           java.util.Set<String> unknown) {
            this(tp, pp, dp, cp, ep, order, sequenceParallel, virtualPp, keySpan, unknown, null, null, null, null);
        }

        public Parallelism(Located<Long> tp, Located<Long> pp, Located<Long> dp, Located<Long> cp, Located<Long> ep,
                           Located<List<ParallelDim>> order, Located<Boolean> sequenceParallel, Located<Long> virtualPp, Span keySpan) {
            this(tp, pp, dp, cp, ep, order, sequenceParallel, virtualPp, keySpan, java.util.Set.of());
        }

        /** The size is written with a value that is not known. */
        public boolean isUnknown(String size) { return unknown.contains(size); }

        @Override public String toString() {
            return "Parallelism[tp=" + tp + ", pp=" + pp + ", dp=" + dp + ", cp=" + cp + ", ep=" + ep
                    + ", order=" + order + ", sequenceParallel=" + sequenceParallel + ", virtualPp=" + virtualPp
                    + (unknown.isEmpty() ? "" : ", unknown=" + new java.util.TreeSet<>(unknown))
                    + (layersPerVirtualStage == null ? "" : ", layersPerVirtualStage=" + layersPerVirtualStage)
                    + (embeddingInSplit == null ? "" : ", embeddingInSplit") + (lossInSplit == null ? "" : ", lossInSplit")
                    + (firstStageLayers == null ? "" : ", firstStageLayers=" + firstStageLayers)
                    + (lastStageLayers == null ? "" : ", lastStageLayers=" + lastStageLayers)
                    + (dpShard == null ? "" : ", dpShard=" + dpShard) + (dpReplicate == null ? "" : ", dpReplicate=" + dpReplicate)
                    + (stageLayers == null ? "" : ", stageLayers=" + stageLayers) + "]";
        }
    }

    /**
     * CPU activation offload: the activations of {@code activationLayers} transformer layers are copied to host memory
     * in the forward pass and back in the backward pass (Megatron's {@code --cpu-offloading} with
     * {@code --cpu-offloading-num-layers}, Megatron-Core's {@code cpu_offloading_num_layers} as NeMo 2 and
     * Megatron-Bridge write it, the native {@code offload.activation_layers}).
     *
     * <p>Model states offloaded to the host (docs/plan.md, "Offloaded model states"): {@code optimizer} is where the
     * optimizer states and their step live ("cpu" or "nvme"; DeepSpeed's {@code zero_optimization.offload_optimizer.device},
     * Megatron's {@code --optimizer-cpu-offload}, FSDP's CPU offload; the native {@code offload.optimizer}), of which
     * {@code optimizerFraction} (Megatron's {@code --optimizer-offload-fraction}, native {@code offload.optimizer_fraction};
     * null: all); {@code parameters} is where the sharded parameters live (DeepSpeed's {@code offload_param.device},
     * accelerate's {@code fsdp_offload_params}, torchtitan's {@code enable_cpu_offload}; native {@code offload.parameters}).
     * Each is null when not written.
     */
    public record Offload(Located<Long> activationLayers, Located<String> optimizer, Located<Double> optimizerFraction,
                          Located<String> parameters) {}

    /**
     * The transformer layers an fp8 (or MXFP8, NVFP4) recipe keeps in bf16 at the start and at the end of the model
     * (docs/format.md, {@code fp8_layers_bf16}: Megatron's {@code --first-last-layers-bf16} with
     * {@code --num-layers-at-start-in-bf16} / {@code --num-layers-at-end-in-bf16}, Megatron-Core's TransformerConfig and
     * Megatron-Bridge's / NeMo 2's mixed-precision {@code first_last_layers_bf16}, {@code num_layers_at_start_in_bf16},
     * {@code num_layers_at_end_in_bf16}); a count not written is null and the plan takes 0.
     *
     * @param start the first layers kept in bf16
     * @param end   the last layers kept in bf16
     * @param span  where the setting is written (the native key, the flag, the recipe's switch)
     * @param recipe the fp8 scaling recipe the switch is on under, as the format states it (Megatron's {@code --fp8-recipe},
     *               {@code fp8_recipe} beside the switch in NeMo 2's and Megatron-Bridge's mappings: "delayed", "tensorwise",
     *               "mxfp8", "blockwise"); null when the switch is off or the format does not say (PAR016)
     * @param recipeDefault the recipe is not written: it is the format's default (Megatron-LM's {@code --fp8-recipe}
     *               default, "delayed"), at the place of {@code --fp8-format}
     */
    public record Bf16Layers(Located<Long> start, Located<Long> end, Span span, Located<String> recipe, boolean recipeDefault) {}

    /**
     * How an MoE model's layers route and compute, as Megatron-Core's flags state it (docs/format.md, model.moe); every
     * field is null when not written and the plan takes its documented default.
     *
     * @param expertFfn      one routed expert's MLP hidden size ({@code --moe-ffn-hidden-size}; default the model's ffn)
     * @param sharedFfn      the shared experts' MLP hidden size, all of them together ({@code --moe-shared-expert-intermediate-size})
     * @param layerFreq      which layers are MoE, as written ({@code --moe-layer-freq}: an int N, every N-th layer, or a
     *                       Python list expression such as {@code ([0]*3+[1]*58)}, 1 = MoE)
     * @param denseLayers    the first layers with a dense MLP (Hugging Face's first_k_dense_replace), when no pattern is written
     * @param capacityFactor tokens an expert takes at most, × the balanced share ({@code --moe-expert-capacity-factor};
     *                       absent: dropless)
     * @param padToCapacity  experts' inputs padded to the capacity ({@code --moe-pad-expert-input-to-capacity})
     * @param dispatcher     alltoall, allgather or flex ({@code --moe-token-dispatcher-type})
     * @param overlapA2a     the all-to-alls overlap another micro-batch's compute ({@code --overlap-moe-expert-parallel-comm})
     * @param groupedGemm    local experts run as one grouped GEMM ({@code --moe-grouped-gemm}) rather than one GEMM each
     * @param activationClamp the experts' GLU inputs clamped to this value (Megatron-Core's activation_func_clamp_value,
     *                       Hugging Face's swiglu_limit: GPT-OSS 7.0); absent: not clamped
     * @param expertBias     the experts' linear layers have biases (Megatron's add_bias_linear on an MoE layer: GPT-OSS)
     * @param routerGroups   the router's expert groups ({@code --moe-router-num-groups}: DeepSeek-V3's node-limited routing)
     * @param routerGroupTopk the groups a token's experts are chosen from ({@code --moe-router-group-topk})
     * @param flexBackend    the flex dispatcher's backend, deepep or hybridep as written ({@code --moe-flex-dispatcher-backend};
     *                       another format may name one the estimate does not price apart)
     */
    public record Moe(Located<Long> expertFfn, Located<Long> sharedFfn, Located<String> layerFreq, Located<Long> denseLayers,
                      Located<Double> capacityFactor, Located<Boolean> padToCapacity, Located<String> dispatcher,
                      Located<Boolean> overlapA2a, Located<Boolean> groupedGemm, Located<Double> activationClamp,
                      Located<Boolean> expertBias, Located<Long> routerGroups, Located<Long> routerGroupTopk,
                      Located<String> flexBackend, Located<Boolean> enableDeepep) {
        /** Without older Megatron-Core's moe_enable_deepep switch (no format but Megatron-LM's, Bridge's and NeMo 2's writes it). */
        public Moe(Located<Long> expertFfn, Located<Long> sharedFfn, Located<String> layerFreq, Located<Long> denseLayers,
                   Located<Double> capacityFactor, Located<Boolean> padToCapacity, Located<String> dispatcher,
                   Located<Boolean> overlapA2a, Located<Boolean> groupedGemm, Located<Double> activationClamp,
                   Located<Boolean> expertBias, Located<Long> routerGroups, Located<Long> routerGroupTopk,
                   Located<String> flexBackend) {
            this(expertFfn, sharedFfn, layerFreq, denseLayers, capacityFactor, padToCapacity, dispatcher, overlapA2a, groupedGemm,
                    activationClamp, expertBias, routerGroups, routerGroupTopk, flexBackend, null);
        }

        /**
         * A flex backend Megatron-Core refuses beside older Megatron-Core's moe_enable_deepep switch (TransformerConfig.__post_init__
         * raises ValueError "Only one backend is supported for flex token dispatcher."): hybridep (transformer_config.py at
         * NVIDIA/Megatron-LM 00caa53af30912914981c86f39db123961678bbd), and deepepv2 in the versions that have it (at
         * 002526d81b81f6ab534e93844f9a228709887494: {@code moe_flex_dispatcher_backend in ("deepepv2", "hybridep")}). Any other
         * written backend (ncclep) Megatron-Core then replaces with deepep. PAR021 and the binder's assumptions read it here.
         */
        public static boolean refusedBesideDeepepSwitch(String backend) {
            if (backend == null) return false;
            String b = backend.strip();
            return b.equalsIgnoreCase("hybridep") || b.equalsIgnoreCase("deepepv2");
        }

        public boolean empty() {
            return expertFfn == null && sharedFfn == null && layerFreq == null && denseLayers == null && capacityFactor == null
                    && padToCapacity == null && dispatcher == null && overlapA2a == null && groupedGemm == null
                    && activationClamp == null && expertBias == null && routerGroups == null && routerGroupTopk == null
                    && flexBackend == null && enableDeepep == null;
        }
    }

    /**
     * A hybrid Mamba model's layers (Megatron-Core's hybrid_override_pattern / --hybrid-layer-pattern, Hugging Face NemotronH's
     * hybrid_override_pattern): one character per decoder layer, {@code M} Mamba-2, {@code *} attention, {@code -} MLP,
     * {@code E} MoE, and the Mamba-2 mixer's sizes (null: not stated, the estimate takes Megatron-LM's defaults and says so).
     *
     * @param pattern  the decoder's layers (no '|' and no MTP blocks)
     * @param heads    mamba_num_heads ({@code --mamba-num-heads})
     * @param headDim  mamba_head_dim ({@code --mamba-head-dim})
     * @param state    ssm_state_size ({@code --mamba-state-dim})
     * @param groups   n_groups ({@code --mamba-num-groups})
     * @param conv     conv_kernel (MambaMixer's d_conv)
     */
    /**
     * Multi-token prediction (DeepSeek-V3's MTP modules, Megatron-Core's MultiTokenPredictionBlock): {@code layers} MTP layers
     * after the decoder (Megatron's {@code --mtp-num-layers}, NeMo 2 / Megatron-Bridge {@code mtp_num_layers}, Hugging Face's
     * {@code num_nextn_predict_layers}, the native {@code model.mtp_layers}, or the {@code m}s of a
     * {@code --pipeline-model-parallel-layout}); {@code blocks} the layers one MTP layer holds when a hybrid pattern writes them
     * after '/' (Nemotron 3 Super's {@code /*E}: 2), null for one transformer layer. Null when not written.
     */
    /**
     * @param letters one MTP layer's blocks by kind, a hybrid pattern's '/' group ({@code *E}); null: the decoder's last layer's kind
     * @param lossStages the loss slots (L) of each stage of a --pipeline-model-parallel-layout that names the loss on several
     *                   stages (Megatron-LM's mtp_loss_split, pull request #5318), in Megatron's order, as the layout's stages are
     *                   in {@link Parallelism#stageLayers}; null when one stage holds the loss
     */
    public record Mtp(Located<Long> layers, Located<Long> blocks, Located<String> letters, Located<List<Long>> lossStages) {}

    /**
     * A hybrid's pattern (its decoder as priced: G as M) and mixer sizes; gdnLayers: how many of its M places were written G
     * (GatedDeltaNet, no MambaMixer); gdnPattern: the decoder with those places as G (HybridPattern.withGdn), null without G,
     * so the estimate prices each G as a gated delta net and each M as Mamba-2, a stage's slice by its own kinds. refused: the
     * size keys written in a native manifest with a value its schema refused (SYN002: read as not written, at the default), so
     * PAR015 names them left out, not "not written"; empty elsewhere (an adapter's Origin records its own).
     */
    public record Hybrid(Located<String> pattern, Located<Long> heads, Located<Long> headDim, Located<Long> state, Located<Long> groups,
                         Located<Long> conv, Gdn gdn, long gdnLayers, String gdnPattern, java.util.Set<String> refused) {
        public Hybrid {
            refused = refused == null ? java.util.Set.of() : java.util.Set.copyOf(refused);
        }
    }

    /**
     * A hybrid's gated-delta-net sizes (Megatron-Core's GatedDeltaNet, a pattern's {@code G}): a Megatron script's
     * {@code --linear-num-key-heads}, {@code --linear-num-value-heads}, {@code --linear-key-head-dim},
     * {@code --linear-value-head-dim}, {@code --linear-conv-kernel-dim}, each null when not written. Present when the pattern's
     * pattern holds a G (Megatron-Core builds each as a GatedDeltaNet, its sizes written or not, beside any M's MambaMixer); {@link Hybrid#gdnPattern} says where.
     */
    public record Gdn(Located<Long> keyHeads, Located<Long> valueHeads, Located<Long> keyHeadDim, Located<Long> valueHeadDim,
                      Located<Long> conv) {}

    /**
     * The attention variants that change its FLOPs and memory (docs/format.md, model.attention); null when not written.
     *
     * @param window      sliding-window size in tokens (Megatron's {@code --window-size}, Hugging Face's sliding_window)
     * @param fullEvery   every n-th layer keeps full attention, the others the window (Megatron's
     *                    {@code --window-attn-skip-freq}; GPT-OSS and Gemma 2 alternate: 2; absent: every layer windowed)
     * @param sinks       learned attention sinks (GPT-OSS): one extra logit per head
     * @param kvLoraRank  multi-latent attention's compressed key/value rank (DeepSeek V2/V3 kv_lora_rank, Megatron's
     *                    {@code --kv-lora-rank}); present = MLA
     * @param qLoraRank   MLA's compressed query rank (q_lora_rank, {@code --q-lora-rank}; absent: queries not compressed)
     * @param qkHeadDim   MLA's per-head query/key size without the rotary part (qk_nope_head_dim, {@code --qk-head-dim})
     * @param qkRopeHeadDim MLA's rotary part of each query/key head (qk_rope_head_dim, {@code --qk-pos-emb-head-dim})
     * @param vHeadDim    MLA's per-head value size (v_head_dim, {@code --v-head-dim})
     * @param kernel      the attention kernel the job runs (model.attention.kernel: fused, flash2, flash3; Megatron's
     *                    {@code --attention-backend}, NeMo 2's attention_backend); null: the format's default
     * @param backend     Megatron-Core's AttnBackend as the job's file writes it (flash, fused, unfused, local, auto:
     *                    {@code --attention-backend}, NeMo 2's and Megatron-Bridge's attention_backend), which Megatron-Core
     *                    checks the NVTE_*_ATTN variables against (PAR018); null when not written, or where no
     *                    Megatron-Core model is built (--use-legacy-models) or the format is not Megatron's
     * @param launches    in a launch script, each command that names the backend with the NVTE_*_ATTN variables as that
     *                    command sees them (PAR018 judges each); empty where the job's env is what its one launch sees
     */
    public record Attention(Located<Long> window, Located<Long> fullEvery, Located<Boolean> sinks, Located<Long> kvLoraRank,
                            Located<Long> qLoraRank, Located<Long> qkHeadDim, Located<Long> qkRopeHeadDim, Located<Long> vHeadDim,
                            Located<String> kernel, Located<String> backend, List<BackendLaunch> launches) {
        public Attention {
            launches = launches == null ? List.of() : List.copyOf(launches);
        }
        public boolean empty() {
            return window == null && fullEvery == null && sinks == null && kvLoraRank == null && qLoraRank == null && qkHeadDim == null
                    && qkRopeHeadDim == null && vHeadDim == null && kernel == null && backend == null;
        }
    }

    /**
     * One launch command that names Megatron-Core's attention backend, with Transformer Engine's NVTE_*_ATTN variables as
     * that command's process gets them (PAR018): {@code known} the values gpulint reads (as the process's string), {@code
     * unknown} those set to a value it cannot read (a shell expansion of an unknown variable, a YAML value Kubernetes
     * refuses), as written; a variable in neither is unset. {@code call}: where a caller runs the launch's script again
     * ({@code srun bash train.sh} a second time), null for its first run.
     */
    public record BackendLaunch(Located<String> backend, Map<String, Located<String>> known, Map<String, Located<String>> unknown,
                                Span call) {
        public BackendLaunch {
            known = Map.copyOf(known);
            unknown = Map.copyOf(unknown);
        }
    }

    /**
     * The batch: {@code scheduleBatch} is the batch per data-parallel rank one pipeline schedule runs when the format runs one
     * per gradient-accumulation step (torchtitan's local_batch_size at pp above 1), null when one schedule runs the step
     * (Layout.schedule, the home of the count).
     */
    public record Batch(Located<Long> microBatchSize, Located<Long> globalBatchSize, Located<Long> microBatches,
                        Located<Long> scheduleBatch) {
        public Batch(Located<Long> microBatchSize, Located<Long> globalBatchSize, Located<Long> microBatches) {
            this(microBatchSize, globalBatchSize, microBatches, null);
        }
    }

    /**
     * The optimizer.
     *
     * @param zeroStageUnknown     zero_stage is written as a placeholder (not the default 0)
     * @param gradReduceDtype      the dtype the data-parallel gradient reduction runs in, as written
     *                             (optimizer.grad_reduce_dtype; torchtitan's mixed_precision_reduce), null when not stated
     * @param zero3Gather          a ZeRO-3 job's gather unit as written (optimizer.zero3_gather: "layer", FSDP's per-block
     *                             unit, or "tensor", DeepSpeed's stage 3 of 2021: derive/estimate/ShardedGathers), null when
     *                             not stated
     * @param persistenceThreshold DeepSpeed's stage3_param_persistence_threshold as written (optimizer.persistence_threshold),
     *                             null when not stated
     * @param gatherWithStep       model chunk 0's parameter all-gather dispatched in the optimizer step
     *                             (optimizer.overlap_param_gather_with_step: Megatron's
     *                             --overlap-param-gather-with-optimizer-step, derive/estimate/OptimizerStepGather), null when
     *                             not stated
     * @param overlapParamGather   Megatron's {@code --overlap-param-gather} as written (Megatron-LM's validate_args requires it
     *                             beside {@code --overlap-param-gather-with-optimizer-step}: PAR017), null when the format does
     *                             not state it
     */
    public record Optimizer(Located<String> type, Located<Long> zeroStage, Located<Double> bytesPerParameter,
                            boolean zeroStageUnknown, Located<Boolean> distributed, Located<String> gradReduceDtype,
                            Located<String> zero3Gather, Located<Double> persistenceThreshold, Located<Boolean> gatherWithStep,
                            Located<Boolean> overlapParamGather) {}

    public record Network(Located<Bandwidth> assumedInterNode, Located<Bandwidth> assumedIntraNode) {}

    /**
     * Where a job read from another format (NeMo, Megatron-LM, Kubernetes, SkyPilot, DeepSpeed)
     * came from, and every place in it that states one of its numbers: the CONSIST rules compare
     * the copies. {@code format} names the format in messages ("Kubernetes MPIJob").
     */
    public record Origin(String format, List<Stated> stated, List<Located<String>> rdmaResources,
                         boolean podsVisible, boolean rdmaByAccess, Located<String> gpuModel,
                         DeepSpeedBatch deepspeed, Located<String> deepspeedConfig,
                         String gpusPerNodeWhere, List<String> unpriced, java.util.Map<String, String> keys) {
        public Origin {
            stated = List.copyOf(stated);
            rdmaResources = List.copyOf(rdmaResources);
            unpriced = unpriced == null ? List.of() : List.copyOf(unpriced);
            keys = keys == null ? java.util.Map.of() : java.util.Map.copyOf(keys);
        }

        /**
         * The value the adapter stated {@code quantity} with ({@link #FSDP_RESHARD}: "always", ...), or null when it states none:
         * each adapter states a quantity once ({@link Job#statedWhere} reads where).
         */
        public String statedValue(String quantity) {
            for (Stated s : stated) if (s.quantity().equals(quantity)) return s.value();
            return null;
        }

        /** The key the format writes {@code quantity} under ({@link #MICRO_BATCH}, ...), or null when it is not recorded. */
        public String key(String quantity) { return keys.get(quantity); }

        /** The quantity under which {@link #keys} records that {@code key} was written and its value refused (SYN002, left out). */
        public static String leftOut(String key) { return "left_out:" + key; }

        /** {@code key} is written with a value its adapter refused (SYN002): left out, not "not written". */
        public boolean isLeftOut(String key) { return keys.containsKey(leftOut(key)); }

        /** The quantity under which {@link #keys} records that a launcher's known precedence decided variable {@code name}'s value at the launch. */
        public static String launchEnv(String name) { return "launch_env:" + name; }

        /** Variable {@code name}'s value at the launch is the job's env's (none when the env lacks it), by a known precedence. */
        public boolean isLaunchDecided(String name) { return keys.containsKey(launchEnv(name)); }

        /** The quantities whose written key an origin keeps, for messages that name the key the user wrote. */
        public static final String MICRO_BATCH = "micro_batch_size", GLOBAL_BATCH = "global_batch_size", SEQ_LENGTH = "seq_length",
                TP = ParallelDim.TP.label(), KERNELS = "kernels", FP8_SCALING = "fp8_scaling",
                FP8_PARAM_GATHER = "fp8_param_gather", FP8_LAYERS_BF16 = "fp8_layers_bf16",
                GATHER_WITH_STEP = "overlap_param_gather_with_step", HYBRID_PATTERN = "hybrid_pattern",
                TP_LAYOUT = "tp_activation_layout", ATTENTION_BACKEND = "attention_backend", FLEX_BACKEND = "flex_backend",
                DISPATCHER = "moe_dispatcher", ENABLE_DEEPEP = "moe_enable_deepep",
                CROSS_ENTROPY_IMPL = "cross_entropy_fusion_impl";

        /**
         * The quantity whose key is the local batch a format's pipeline schedule splits into its micro-batches (torchtitan's
         * {@code local_batch_size}, split into {@code pipeline_parallel_microbatch_size} ones), recorded only where the format
         * counts the micro-batches per step that way (PAR006 names it and advises raising it).
         */
        public static final String LOCAL_BATCH = "local_batch_size";

        /** The quantity whose key is where a format writes the micro-batches per step (torchtitan's pipeline_parallel_microbatches). */
        public static final String MICRO_BATCHES = "micro_batches";

        /** The quantity a format states its model's name under, as the file writes it (torchtitan's [model] name and flavor). */
        public static final String MODEL_NAME = "model_name";

        /** The quantity a format states FSDP's version under when it is 2 (accelerate's fsdp_version: FSDP2's fully_shard). */
        public static final String FSDP_VERSION = "fsdp_version";

        /** The quantity torchtitan's {@code [parallelism] fsdp_reshard_after_forward} is stated under, as written (default, always, never). */
        public static final String FSDP_RESHARD = "fsdp_reshard_after_forward";

        /** The quantity torchtitan states whether its loss is compiled under ("compiled" or "eager": build_cross_entropy_loss). */
        public static final String LOSS_COMPILE = "loss_compile";

        /** The quantity torchtitan states its loss parallelism under ("off": disable_loss_parallel written true). */
        public static final String LOSS_PARALLEL = "loss_parallel";
    }

    /**
     * Which cross-entropy a Megatron-Core job's loss runs ({@link Model#crossEntropy}), from {@code cross_entropy_loss_fusion}
     * with {@code cross_entropy_fusion_impl} (Megatron-LM's {@code --cross-entropy-loss-fusion --cross-entropy-fusion-impl},
     * the Bridge / NeMo 2 model config keys, a native manifest's model.loss.kernel): {@code TE} Transformer Engine's fused
     * one (impl te), {@code LINEAR} the fused linear cross-entropy (impl linear: the output layer and the loss in one
     * kernel), {@code NATIVE} Megatron-Core's own, fused (impl native) or not (the fusion off).
     */
    public enum CrossEntropy { NATIVE, TE, LINEAR }

    /** What kind of place states a number: the binding configuration, a launcher's command line, the resources a pod gets, or a name. */
    public enum StatedKind { CONFIG, LAUNCHER, RESOURCE, NAME }

    /**
     * One statement of one number: {@code quantity} is world (ranks or GPUs of the whole job),
     * per_node (ranks or GPUs per node or pod), app_gpus_per_node (GPUs the program itself asks
     * for per node), step_gpus_per_node (GPUs per node a Slurm step asks for: srun --gres), pod_gpus (GPUs a pod gets), tp, pp, cp, ep, etp, vpp, or env:NAME.
     */
    public record Stated(String quantity, String value, String where, StatedKind kind, Span span) {
        public long number() {
            try { return Long.parseLong(value.trim()); } catch (NumberFormatException e) { return -1; }
        }
    }

    /** DeepSpeed's batch triple: train_batch_size = micro batch per GPU × gradient accumulation × dp. */
    public record DeepSpeedBatch(Located<Long> trainBatchSize, Located<Long> microBatchPerGpu, Located<Long> gradientAccumulation) {}

    /**
     * A NIC policy of the NVIDIA network operator or the SR-IOV operator (SriovNetworkNodePolicy,
     * NicConfigurationTemplate): {@code linkType} as written (ib, eth, Ethernet, Infiniband),
     * {@code mtu}, whether it turns RDMA on, and its node selector ({@code nodeSelector} is the key
     * when written, null when absent). {@code narrowed}: a device-plugin resource whose NICs are picked by
     * more than the link type (deviceIDs, ifNames, pfNames, rootDevices), or whose policy also has a resource
     * of the other link type: its link type then says which NICs of a node it takes, not what the fabric is.
     */
    public record NicPolicy(String kind, Located<String> name, String file, Located<String> linkType, Located<Long> mtu,
                            Located<Boolean> rdma, Span nodeSelector, boolean nodeSelectorRequired, Span span, String resource,
                            boolean narrowed) {
        public NicPolicy(String kind, Located<String> name, String file, Located<String> linkType, Located<Long> mtu,
                         Located<Boolean> rdma, Span nodeSelector, boolean nodeSelectorRequired, Span span) {
            this(kind, name, file, linkType, mtu, rdma, nodeSelector, nodeSelectorRequired, span, null, false);
        }
    }

    /** One row of a dcgm-exporter counter list: the DCGM field, its Prometheus type, its help text. */
    public record DcgmField(Located<String> name, Located<String> type, Located<String> help, String file) {}

    /**
     * One use of a DCGM metric in a Prometheus expression (a recording or alerting rule):
     * {@code function} is the innermost function applied to it (rate, irate, increase, delta,
     * deriv, idelta, or "" for none); {@code owner} names the rule ("record gpu:pcie_tx").
     */
    public record MetricQuery(Located<String> metric, String function, String owner, String file) {}
}
