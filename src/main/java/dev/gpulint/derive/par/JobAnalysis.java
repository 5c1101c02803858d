package dev.gpulint.derive.par;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.core.Span;
import dev.gpulint.derive.Facts;

import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.estimate.JobInputs;
import dev.gpulint.facts.JobFact;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Format;
import dev.gpulint.spec.Specs;
import java.util.ArrayList;
import java.util.List;

/** The PAR family's job fact: GPU counts, parallel sizes, the model's shape and the batch. */
public final class JobAnalysis {
    private JobAnalysis() {}

    /** The most node group names a job fact lists (a fleet inventory lists a million); the count says the rest. */
    public static final int MAX_GROUP_NAMES = 20;

    /** A cluster's named node groups: how many, and their names as messages list them. */
    private record GroupNames(int count, String names) {}

    /** Each cluster's names, computed once: 100,000 jobs on a 100,000-group cluster must not list them 100,000 times. */
    private static final ThreadLocal<java.util.Map<Specs.Cluster, GroupNames>> NAMES =
            ThreadLocal.withInitial(java.util.IdentityHashMap::new);

    /** Forgets the clusters of the last run (the deriver calls it when a run begins and ends). */
    public static void reset() { NAMES.remove(); }

    private static GroupNames groupNames(Specs.Cluster c) {
        return NAMES.get().computeIfAbsent(c, k -> {
            int count = (int) Math.min(Integer.MAX_VALUE, k.namedGroupCount());
            List<String> names = k.groupNames(MAX_GROUP_NAMES);
            String list = String.join(", ", names) + (count > MAX_GROUP_NAMES ? ", … (" + count + " in all)" : "");
            return new GroupNames(count, list);
        });
    }

    public static void job(Resolved.Job r, Facts out) {
        Specs.Job j = r.spec();
        Specs.Parallelism p = j.parallelism();
        Resolved.Cluster cluster = r.cluster();
        GroupNames groupNames = cluster == null ? new GroupNames(0, "") : groupNames(cluster.spec());
        Specs.Model m = j.model();
        Specs.Batch b = j.batch();
        out.add(JobFact.builder()
                .name(r.name(), j.name().span(), j.file(), out.ordinal())
                .firstOfName(out.earlierOfName("job", r.name(), j.name().span()))
                .cluster(value(j.cluster()), span(j.cluster()), cluster != null, groupNames.count(), groupNames.names())
                .nodeGroup(value(j.nodeGroup()), span(j.nodeGroup()), r.group() != null)
                .gpus(r.nodes(), span(j.nodes()), r.gpusPerNode(), r.gpusPerNodeSpan(), r.gpusPerNodeSource(), r.totalGpus())
                .parallelism(r.tp(), r.pp(), r.dp(), r.cp(), r.ep(), r.dpEffective(), p == null ? null : p.keySpan(), r.parallelismStated())
                .spans(p == null ? null : span(p.tp()), p == null ? null : span(p.pp()), p == null ? null : span(p.dp()),
                        p == null ? null : span(p.cp()), p == null ? null : span(p.ep()))
                .layers(m == null ? 0 : value(m.layers(), 0L), m == null ? null : span(m.layers()),
                        r.virtualPp(), p == null ? null : span(p.virtualPp()))
                .layout(p == null ? 0 : value(p.layersPerVirtualStage(), 0L), p == null ? null : span(p.layersPerVirtualStage()),
                        p != null && p.embeddingInSplit() != null, p != null && p.lossInSplit() != null,
                        p == null ? null : span(p.embeddingInSplit() != null ? p.embeddingInSplit() : p.lossInSplit()))
                .unevenStages(p == null ? 0 : value(p.firstStageLayers(), 0L), p == null ? null : span(p.firstStageLayers()),
                        p == null ? 0 : value(p.lastStageLayers(), 0L), p == null ? null : span(p.lastStageLayers()))
                .heads(m == null ? 0 : value(m.attentionHeads(), 0L), m == null ? null : span(m.attentionHeads()),
                        m == null ? 0 : value(m.kvHeads(), 0L), m == null ? null : span(m.kvHeads()))
                .experts(m == null ? 0 : value(m.experts(), 0L), m == null ? null : span(m.experts()))
                .expertTp(p == null ? -1 : p.expertTp() != null ? p.expertTp().value() : p.isUnknown(ParallelDim.ETP) ? 0 : -1)
                .sequence(m == null ? 0 : value(m.seqLength(), 0L), m == null ? null : span(m.seqLength()),
                        p != null && Boolean.TRUE.equals(value(p.sequenceParallel())), p == null ? null : span(p.sequenceParallel()))
                .sequenceSetting(p != null && p.sequenceParallel() != null, j.origin() == null ? null : j.origin().format(),
                        (p == null || p.sequenceParallel() == null) && JobInputs.sequenceParallelDefault(j).knownOff(),
                        JobInputs.sequenceParallelDefaultFormat(j))
                .batch(b == null ? 0 : value(b.microBatchSize(), 0L), b == null ? null : span(b.microBatchSize()),
                        b == null ? 0 : value(b.globalBatchSize(), 0L), b == null ? null : span(b.globalBatchSize()))
                .microBatchesStated(b != null && b.microBatches() != null)
                // torchtitan at pp above 1: one schedule per gradient-accumulation step, the step whole schedules (PAR007's quantum)
                .schedule(JobInputs.scheduleBatch(b, r.pp()), b == null ? null : span(b.scheduleBatch()), WrittenKeys.of(j, Specs.Origin.LOCAL_BATCH))
                .serving(j.statedWhere("serving"))
                .laidOut(p != null && (p.stageLayers() != null || p.isUnknown(Specs.PIPELINE_LAYOUT))
                        || j.origin() != null && Format.of(j.origin().format()).splitsItsOwnPipeline())
                .offload(j.offload() == null ? 0 : value(j.offload().activationLayers(), 0L),
                        j.offload() == null ? null : span(j.offload().activationLayers()))
                .tied(m != null && Boolean.TRUE.equals(value(m.tiedEmbeddings())), m == null ? null : span(m.tiedEmbeddings()))
                .modelName(statedModel(j))
                .written(WrittenKeys.of(j, Specs.Origin.MICRO_BATCH), WrittenKeys.of(j, Specs.Origin.GLOBAL_BATCH),
                        WrittenKeys.of(j, Specs.Origin.SEQ_LENGTH), WrittenKeys.citesMegatron(j))
                .fact());
    }

    /** The model's name as the job's file writes it (Specs.Origin.MODEL_NAME), or null. */
    private static String statedModel(Specs.Job j) {
        return j.origin() == null ? null : j.origin().statedValue(Specs.Origin.MODEL_NAME);
    }

    private static <T> T value(Located<T> l) { return l == null ? null : l.value(); }

    private static <T> T value(Located<T> l, T dflt) { return l == null ? dflt : l.value(); }

    private static Span span(Located<?> l) { return l == null ? null : l.span(); }
}
