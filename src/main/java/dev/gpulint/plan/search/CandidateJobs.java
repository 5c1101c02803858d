package dev.gpulint.plan.search;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.core.Span;
import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;
import java.util.Set;

/**
 * A job with a candidate layout written in: the same model, batch, cluster, node group, network and environment,
 * with the candidate's parallel sizes, micro batch and optimizer sharding, so that derive and the rules check the
 * candidate exactly as they check a job. Each value keeps the span of the value it replaces (or the job's span), so a
 * finding still points at the place to edit. Copies of the parallel sizes that another format states elsewhere (a
 * launcher's --tensor-model-parallel-size, DeepSpeed's batch triple) are left out: a rewrite to the candidate would
 * change them too, and comparing them with the candidate would only say it differs from the job as written.
 */
final class CandidateJobs {
    private CandidateJobs() {}

    /** Stated quantities of another format that the candidate rewrites (etp is not one: a candidate keeps the job's). */
    private static final Set<String> REWRITTEN = Set.of(ParallelDim.TP.label(), ParallelDim.PP.label(), ParallelDim.CP.label(),
            ParallelDim.EP.label(), ParallelDim.VPP.label(), ParallelDim.DP.label());

    /**
     * {@code job} laid out as {@code l}, named {@code name}: every field the job states that the layout does not choose
     * is kept (expert tp, rank order, the pipeline split's embedding and loss, the model, the network), so a candidate
     * raises nothing the job as written would not for the same sizes. The layout's optimizer sharding is written as it
     * is: its ZeRO stage and optimizer.distributed (MEM001 counts Megatron's distributed optimizer as the plan does).
     */
    static Specs.Job of(Specs.Job job, Layout l, String name) { return of(job, l, name, 0); }

    /**
     * With {@code perNode} GPUs per node (above 0), a candidate for another GPU count than the job's (`plan --gpus`)
     * asks for the nodes it needs: the candidate's GPUs ÷ {@code perNode}, rounded up.
     */
    static Specs.Job of(Specs.Job job, Layout l, String name, long perNode) { return of(job, l, name, perNode, origin(job.origin())); }

    /**
     * As above, with the job's origin as every candidate keeps it ({@link #origin}, made once by a search for all its
     * candidates: one object, so derive compares its statements once per run).
     */
    static Specs.Job of(Specs.Job job, Layout l, String name, long perNode, Specs.Origin origin) {
        Span at = job.span() != null ? job.span() : job.name().span();
        Specs.Parallelism p = job.parallelism();
        Specs.Parallelism parallelism = new Specs.Parallelism(
                size(l.tp(), p == null ? null : p.tp(), at), size(l.pp(), p == null ? null : p.pp(), at),
                size(l.dp(), p == null ? null : p.dp(), at), size(l.cp(), p == null ? null : p.cp(), at),
                size(l.ep(), p == null ? null : p.ep(), at), p == null ? null : p.order(),
                new Located<>(l.sequenceParallel(), span(p == null ? null : p.sequenceParallel(), at)),
                size(l.virtualPp(), p == null ? null : p.virtualPp(), at), p == null || p.keySpan() == null ? at : p.keySpan(),
                Set.of(), null, p == null ? null : p.embeddingInSplit(), p == null ? null : p.lossInSplit(),
                p == null ? null : p.expertTp(),
                // a hand-made first/last stage stays with the layout that keeps it (same pp), as written
                p != null && l.split().first() > 0 ? p.firstStageLayers() : null,
                p != null && l.split().last() > 0 ? p.lastStageLayers() : null,
                // hybrid sharding stays with a layout whose dp the shard group still divides
                l.hybrid() ? new Located<>((long) l.shardRanks(), span(p == null ? null : p.dpShard(), at)) : null, null,
                // a per-layer layout stays with the layout whose pp it was written for
                // (or the framework's own split of a candidate's pp: gpt-neox's DeepSpeed split, SearchSpace)
                !l.split().laidOut(l.pp()) ? null : p != null && p.stageLayers() != null && l.split().stages().equals(p.stageLayers().value())
                        ? p.stageLayers() : new Located<>(l.split().stages(), p == null || p.keySpan() == null ? at : p.keySpan()),
                // the tensor-parallel overlap and the activations' layout are the job's software settings, whatever the layout
                p == null ? null : p.tpCommOverlap(), p == null ? null : p.tpActivationLayout(),
                // so is the pipeline's shape exchange (variable_seq_lengths)
                p == null ? null : p.variableSeqLengths(),
                // the written layout's words stay with the layout it was written for (the same split, on the same pp)
                p != null && p.layout() != null && p.stageLayers() != null && l.split().laidOut(l.pp())
                        && l.split().stages().equals(p.stageLayers().value()) ? p.layout() : null);
        Specs.Batch b = job.batch();
        Specs.Batch batch = new Specs.Batch(size(l.microBatchSize(), b == null ? null : b.microBatchSize(), at),
                new Located<>(l.globalBatchSize(), span(b == null ? null : b.globalBatchSize(), at)), null,
                // the batch one pipeline schedule runs (torchtitan's local batch) stays the job's, as its schedules do (Layout.schedule)
                l.scheduleBatch() > 0 ? new Located<>((long) l.scheduleBatch(), span(b == null ? null : b.scheduleBatch(), at)) : null);
        Specs.Optimizer o = job.optimizer();
        Specs.Optimizer optimizer = new Specs.Optimizer(o == null ? null : o.type(),
                new Located<>((long) l.zeroStage(), span(o == null ? null : o.zeroStage(), at)), o == null ? null : o.bytesPerParameter(), false,
                new Located<>(l.distributedOptimizer(), span(o == null ? null : o.distributed(), at)),
                o == null ? null : o.gradReduceDtype(), o == null ? null : o.zero3Gather(), o == null ? null : o.persistenceThreshold(),
                o == null ? null : o.gatherWithStep(), o == null ? null : o.overlapParamGather());
        Located<Long> nodes = job.nodes();
        if (perNode > 0) {
            long need = (l.gpus() + perNode - 1) / perNode;
            if (nodes == null || nodes.value() == null || nodes.value() != need) nodes = new Located<>(need, span(job.nodes(), at));
        }
        return new Specs.Job(new Located<>(name, job.name().span()), job.file(), job.cluster(), job.nodeGroup(), nodes,
                job.gpusPerNode(), job.model(), parallelism, batch, optimizer, job.network(), job.stepTime(), job.env(), job.span(),
                origin, job.recompute(), job.offload(), job.kernels(), job.fp8Scaling(), job.fp8ParamGather(),
                job.fp8LayersBf16());
    }

    /** The job's origin as a candidate keeps it: the statements of the sizes a candidate rewrites left out. */
    static Specs.Origin origin(Specs.Origin o) {
        if (o == null) return null;
        List<Specs.Stated> kept = o.stated().stream().filter(s -> !REWRITTEN.contains(s.quantity())).toList();
        return new Specs.Origin(o.format(), kept, o.rdmaResources(), o.podsVisible(), o.rdmaByAccess(), o.gpuModel(), null,
                o.deepspeedConfig(), o.gpusPerNodeWhere(), o.unpriced(), o.keys());
    }

    private static Located<Long> size(long value, Located<Long> was, Span at) { return new Located<>(value, span(was, at)); }

    private static Span span(Located<?> was, Span at) { return was != null && was.span() != null ? was.span() : at; }
}
