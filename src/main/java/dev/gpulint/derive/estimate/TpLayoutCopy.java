package dev.gpulint.derive.estimate;

import dev.gpulint.derive.estimate.Layout.Recompute;
import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;

/**
 * The copies DTensor's sequence-dimension collectives add when a tensor-parallel plan lays the activations out
 * [b, s, h] and shards them on the sequence (Shard(1)): torchtitan's plan until its PR #4121 (pytorch/torchtitan,
 * 2026-08, "fold batch dim", which folded batch and sequence into one token dimension gathered on dim 0). NCCL gathers
 * and scatters on dim 0, so PyTorch's functional collectives (torch/distributed/_functional_collectives.py) follow
 * {@code all_gather_tensor(…, gather_dim=1)} with {@code torch.cat(torch.chunk(res, group_size, dim=0), dim=gather_dim)}
 * and precede {@code reduce_scatter_tensor(…, scatter_dim=1)} with {@code torch.cat(torch.chunk(self, group_size,
 * dim=scatter_dim))}: each collective reads and writes the whole gathered b·s·h tensor once more. torchtitan PR #437
 * (2024-07) measured it ("an extra aten.cat after each collective": at 8k tokens, batch 1, on H100, "these two cats take
 * about 0.18 ms out of 3 ms of FFN compute"); torchtitan's apply_tp keeps a NOTE on it. Megatron lays activations out
 * [s, b, h] and gathers on dim 0: no copy ({@link #SBH}, every format's default but torchtitan's, which takes the layout
 * its configuration's keys date, bind/adapt/TorchtitanAdapter).
 *
 * <p>Priced at the catalog's HBM rate, no fitted constant: per layer and micro-batch, {@code 2 · T · h · bytes} per
 * copied collective (T the micro-batch's tokens per cp rank), the collectives the tp term counts
 * ({@link Checkpointing#tpCollectives}: 8 all-gathers and reduce-scatters, 10 under op-level SAC, whose recompute runs the
 * two all-gathers again, 12 recomputed in full), with sequence parallelism only (an all-reduce has no gather dim):
 * <ul>
 * <li>plain TP (and a job that does not state its overlap): every one of them, on the critical path;
 * <li>async TP ({@link TpOverlap.Mode#OVERLAPPED}, torch.compile's micro-pipeline pass): the all-gather-and-cat is replaced
 *     by {@code fused_all_gather_matmul} and the matmul-reduce-scatter by {@code fused_matmul_reduce_scatter}
 *     (torch/_inductor/fx_passes/micro_pipeline_tp.py), which move the gather or scatter dim to the front and compute in
 *     [s, b] order; Inductor restrides their inputs' producers ({@code restride_A_shard_for_fused_all_gather_matmul},
 *     {@code restride_A_for_fused_matmul_reduce_scatter}: no copy) and the fused kernels after them read the
 *     {@code movedim} views they return (torch/distributed/_symmetric_memory, {@code _fused_all_gather_matmul_impl}'s
 *     {@code unflatten}). What still copies is the gathered tensor a weight gradient flattens to a matrix: a [b, s, h]
 *     view with [s, b, h] strides cannot be viewed as (b·s) × h, so its {@code view} is materialised — once for each of
 *     the two gathered inputs (attention and MLP, as last gathered before the backward) and each of the two gathered output
 *     gradients (before wo and w2): 4 copies a layer, none with a micro-batch of 1 (a size-1 batch dim keeps the view);
 * <li>Float8 tensorwise (torchao's Float8ColwiseParallel, Float8RowwiseParallel and PrepareFloat8ModuleInput, which
 *     torchtitan's apply_tp uses for tensorwise recipes): the inputs are cast to float8 before their all-gather and the
 *     output gradients before theirs ({@code _NoopFwToFloat8BwDynamic} after the reduce-scatter), so every all-gather's
 *     copy moves 1 byte an element; the reduce-scatters stay in bf16.
 * </ul>
 * Not priced here: the same fp8 halving of the all-gathers' transfers (the tp term counts 2 bytes a gathered element
 * for every format; Transformer Engine's gathers are not these), and PyTorch's later view of a batch-1 all-gather
 * (pytorch/pytorch PR #169404, {@code _maybe_view_chunk_cat}), which the manifest's PyTorch version would have to tell.
 *
 * @param bsh the job's tp activations are [b, s, h], sharded on the sequence
 */
public record TpLayoutCopy(boolean bsh) {
    public static final TpLayoutCopy SBH = new TpLayoutCopy(false), BSH = new TpLayoutCopy(true);

    /** Gathered tensors a layer's weight gradients flatten under async TP: two inputs, two output gradients. */
    static final double FUSED_COPIES = 4;

    /** The job's layout as it states it, else its format's default; one line of {@code as} when tp > 1 with sequence parallelism. */
    static TpLayoutCopy of(Specs.Job j, long tp, boolean sp, List<String> as) {
        Specs.Parallelism p = j.parallelism();
        Located<String> stated = p == null ? null : p.tpActivationLayout();
        boolean titan = j.origin() != null && Format.of(j.origin().format()) == Format.TORCHTITAN;
        boolean said = tp > 1 && sp;
        if (stated != null && stated.value() != null) {
            String key = j.origin() != null && j.origin().key(Specs.Origin.TP_LAYOUT) != null ? j.origin().key(Specs.Origin.TP_LAYOUT)
                    : "parallelism.tp_activation_layout: " + stated.value();
            boolean bsh = stated.value().equals("bsh");
            if (said) as.add(bsh
                    ? "tp activations [b, s, h] sharded on the sequence (" + key + "): each tp all-gather and reduce-scatter on dim 1"
                            + " copies the whole b·s·h tensor once more, priced at the HBM rate (tp-copy)"
                    : "tp activations gathered on dim 0 (" + key + "): no copy around the tp collectives");
            return bsh ? BSH : SBH;
        }
        if (titan && said) {
            as.add("torchtitan's activation layout not dated by its configuration ([training] seq_len / local_batch_size, renamed"
                    + " by its PR #4121): the current torchtitan's, batch and sequence folded and gathered on dim 0, no copy around"
                    + " the tp collectives (write parallelism.tp_activation_layout: bsh for a job that ran before it)");
        }
        return SBH;
    }

    /**
     * One micro-batch's copies on the slowest stage, or null when none (sbh, tp 1, no sequence parallelism).
     *
     * @param tokens     the micro-batch's tokens per cp rank (the gathered tensor's b·s)
     * @param tpCount    the tp collectives per layer the tp term prices (a hybrid's share included)
     * @param layers     the slowest stage's layers
     * @param mode       how the job runs its tp collectives
     * @param fp8Gathers the all-gathers run in float8 (torchao's Float8 tensorwise TP)
     * @param hbmRate    the achieved HBM rate, bytes/s
     */
    Term.TpCopy price(ModelShape m, Layout l, double tokens, double tpCount, double layers, TpOverlap.Mode mode, boolean fp8Gathers,
                      double hbmRate, long microBatches) {
        if (!bsh || l.tp() <= 1 || !l.sequenceParallel() || tpCount <= 0 || layers <= 0) return null;
        double base = Checkpointing.tpCollectives(l, layers), share = base > 0 ? tpCount / base : 0;
        // op-level SAC recomputes the two all-gathers, not the reduce-scatters (their outputs are saved)
        double extra = l.recompute() == Recompute.OP ? 2 : 0;
        boolean fused = mode == TpOverlap.Mode.OVERLAPPED;
        double gathers = fused ? (l.microBatchSize() == 1 ? 0 : FUSED_COPIES * share) : (base + extra) / 2 * share;
        double reduces = fused ? 0 : (base - extra) / 2 * share;
        if (gathers + reduces <= 0) return null;
        double elements = tokens * m.hidden(), ab = m.dtype().activationBytes(), gb = fp8Gathers ? 1 : ab;
        double bytes = 2 * elements * (gathers * gb + reduces * ab);
        double seconds = layers * bytes / hbmRate;
        return new Term.TpCopy(fused, gathers, reduces, elements, gb, ab, bytes, hbmRate, layers, seconds, microBatches);
    }
}
