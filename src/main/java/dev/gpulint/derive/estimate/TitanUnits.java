package dev.gpulint.derive.estimate;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Specs;

/**
 * torchtitan's FSDP2 units beyond the transformer blocks, as its apply_fsdp wraps them (torchtitan/models/llama3/infra/
 * parallelize.py, pytorch/torchtitan@018740b7aae7846d24954539244c78215dbd181f): {@code fully_shard(model.tok_embeddings,
 * reshard_after_forward=reshard_after_forward)} (the blocks' setting), one {@code fully_shard} per transformer block, then
 * {@code fully_shard([model.norm, model.output], reshard_after_forward=reshard_after_forward_policy == "always")} ("As an
 * optimization, do not reshard_after_forward the last layers by default since FSDP would prefetch them immediately after the
 * forward pass"), then {@code fully_shard(model)} over nothing left. So a step's sync has two units more than the layers, the
 * embedding's (gathered as a block is) and the final norm and output's, gathered once per micro-batch and kept from forward to
 * backward unless the policy is "always" ({@link #outputGathers}); and at ZeRO stage 3 the output's unit is whole on the GPU
 * at the stage's peak, the start of the backward, whatever the policy (kept from the forward, or gathered again by the
 * output's backward, the first, while every activation is still held): {@link #heldBytes}, the one home of the plan's memory
 * (MemoryModel) for it. Without pipeline parallelism only: under pp torch.distributed.pipelining holds every unit whole
 * through the step (ShardedGathers#pipelined) and the sync is HybridSync's per layer. Tied embeddings (one matrix in both
 * units) are not priced apart.
 *
 * @param outputResharded the policy is "always": the final norm and output's unit reshards after forward and is gathered
 *                        again for the backward
 */
public record TitanUnits(boolean outputResharded) {

    /** A torchtitan job's units with untied embeddings, by its stated {@code fsdp_reshard_after_forward}; null for any other job. */
    static TitanUnits of(Specs.Job j, ModelShape m) {
        if (j.origin() == null || Format.of(j.origin().format()) != Format.TORCHTITAN || m == null || m.tiedEmbeddings()) return null;
        return new TitanUnits("always".equals(j.origin().statedValue(Specs.Origin.FSDP_RESHARD)));
    }

    /**
     * The plan's assumptions line for a torchtitan job ({@code zero3}: at ZeRO stage 3, where the output's unit is held whole
     * at the peak; {@code hybrid}: HSDP, whose sync HybridSync prices per layer): its units, their gathers and the memory they
     * add, without pp.
     */
    String describe(boolean zero3, boolean hybrid) {
        return "torchtitan's FSDP2 units (apply_fsdp): without pipeline parallelism L + 2 per micro-batch, the embedding's and one"
                + " of the final norm + output beside the L blocks, each reduce-scattered once"
                + (hybrid ? " (under hybrid sharding the sync is priced one unit per layer, their bytes spread over the layers)" : "")
                + "; the final norm + output unit "
                + (outputResharded && zero3 ? "resharded after forward and gathered again for the backward (fsdp_reshard_after_forward"
                        + " \"always\")" : "gathered once, kept from forward to backward (fsdp_reshard_after_forward not \"always\")")
                + (zero3 ? ", and whole at the backward's start on the last stage: 2·(V·h ÷ tp + h) bytes beside the sharded weights,"
                        + " with the last block FSDP2 prefetches while the output's backward runs (its default backward prefetch):"
                        + " 2 bytes per parameter of the last block ÷ tp more (an MoE flavor's an MoE layer, its routed experts"
                        + " ÷ etp·ep, without them under ep > 1: their own unit), less what the loss's backward freed before"
                        + " (its saved tensors, the logits' gradient kept: the larger of the two moments)" : "")
                + "; with pipeline parallelism every unit is held whole through the step and synced once per layer";
    }

    /** Whether a layout's sync and memory take these units apart: pipeline parallelism of one stage, ZeRO stage 2 or 3. */
    static boolean applies(TitanUnits t, Layout l) {
        return t != null && l.pp() == 1 && l.zeroStage() >= 2;
    }

    /** The embedding's parameters on one GPU: V·h ÷ tp (apply_tp's RowwiseParallel). */
    static double embedding(ModelShape m, Layout l) {
        return m.embeddingParameters() / l.tp();
    }

    /** The final norm and output's parameters on one GPU: V·h ÷ tp (ColwiseParallel) + h (the norm, SequenceParallel: whole). */
    static double output(ModelShape m, Layout l) {
        return m.embeddingParameters() / l.tp() + m.hidden();
    }

    /** The final norm and output's all-gathers per micro-batch: 2 at stage 3 when the policy is "always", else 1 (kept for the backward). */
    int outputGathers(long zeroStage) {
        return zeroStage >= 3 && outputResharded ? 2 : 1;
    }

    /**
     * One micro-batch's parameter all-gathers and gradient reduce-scatters of a stage of {@code layerUnits} FSDP units (one per
     * layer) over all of dp·cp, with torchtitan's two units beside them where they apply ({@link #applies}): per micro-batch
     * {@code gathersPerUnit} all-gathers of each layer and of the embedding, {@link #outputGathers} of the final norm and
     * output, one reduce-scatter of each unit. The bytes are the stage's {@code gatherBytes} ({@link ParamGather}, the output's
     * at 2 bytes) gathered {@code gathersPerUnit} times, less the output's once when it is kept from forward to backward.
     *
     * @param gathers       all-gathers per micro-batch
     * @param gatheredBytes the bytes they assemble on one GPU, all together
     * @param reduces       reduce-scatters per micro-batch
     */
    record Sync(double gathers, double gatheredBytes, double reduces) {}

    /** {@link Sync} of a layout; without these units ({@code t} null, or not {@link #applies}) the layers' alone. */
    static Sync sync(TitanUnits t, ModelShape m, Layout l, double layerUnits, int gathersPerUnit, double gatherBytes) {
        if (!applies(t, l)) return new Sync(gathersPerUnit * layerUnits, gathersPerUnit * gatherBytes, layerUnits);
        int out = t.outputGathers(l.zeroStage());
        double kept = (gathersPerUnit - out) * output(m, l) * ParamGather.WIDE;
        return new Sync(gathersPerUnit * (layerUnits + 1) + out, Math.max(0, gathersPerUnit * gatherBytes - kept), layerUnits + 2);
    }

    /** The words of {@link #sync}'s all-gathers beside the layers', empty without these units. */
    static String gatherWords(TitanUnits t, Layout l) {
        if (!applies(t, l)) return "";
        return t.outputGathers(l.zeroStage()) == 2 || l.zeroStage() < 3
                ? ", and the same of torchtitan's embedding unit and its final norm + output unit"
                : ", and the same of torchtitan's embedding unit, its final norm + output unit's once (kept from forward to backward:"
                        + " fsdp_reshard_after_forward not \"always\")";
    }

    /**
     * The bytes the final norm and output's gathered unit adds to one GPU of the stage holding it at its peak: at ZeRO stage 3
     * (the weights counted sharded) its parameters whole at 2 bytes (torchtitan's mixed_precision_param, bf16 by default:
     * FSDP2 all-gathers the unsharded parameters in param_dtype beside the sharded ones); 0 when the weights are counted whole
     * already (stage 2, or held whole under pp) or the units do not apply.
     */
    static double heldBytes(TitanUnits t, ModelShape m, Layout l, boolean pipelined) {
        return applies(t, l) && l.zeroStage() >= 3 && !pipelined ? output(m, l) * ParamGather.WIDE : 0;
    }

    /**
     * The bytes of the last transformer block FSDP2 all-gathers beside the final norm + output unit at the same peak, at 2
     * bytes per parameter ({@code layerParameters}: the decoder's last block's on one GPU, MemoryModel#prefetchedAtPeak), where {@link #heldBytes} counts that unit. FSDP2
     * prefetches the backward by default: the output unit's {@code FSDPParamGroup.pre_backward(default_prefetch)} ends with
     * {@code _backward_prefetch}, which unshards the group before it in the post-forward order, the last block
     * ({@code post_forward_order[curr_index - 1]}; FSDPState._pre_backward passes {@code default_prefetch} true when no
     * explicit {@code set_modules_to_backward_prefetch} is set, as torchtitan's apply_fsdp sets none for a dense model),
     * and the output unit is resharded only in its post_backward (pytorch/pytorch torch/distributed/fsdp/_fully_shard/
     * _fsdp_param_group.py at 002a76fbfea0ac0f199e4b8e2a0691074796c908, _fsdp_state.py at
     * 1fd469d0c96ead7343898aa01db036dbbe4c46db). So while the output's backward runs, with every activation still held, two
     * units are whole: the output's and the last block's; later blocks are whole two at a time too (block i and i − 1), but
     * by then activations have been freed. Forward's implicit prefetch (the next block's all-gather issued while one
     * computes) comes before the peak. The unsharded gradients of the output unit before their reduce-scatter are not
     * counted: the logits' working memory ({@link MemoryModel#lossBytes}) is freed as they are made.
     */
    static double prefetchedBytes(TitanUnits t, Layout l, boolean pipelined, double layerParameters) {
        return applies(t, l) && l.zeroStage() >= 3 && !pipelined ? layerParameters * ParamGather.WIDE : 0;
    }

    /**
     * Whether the block {@link #prefetchedBytes} counts brings its routed experts: without expert parallelism an MoE block is
     * one FSDP unit, experts and all, prefetched as above; with ep &gt; 1 torchtitan's apply_fsdp for its MoE models wraps
     * the experts in a unit of their own on the dp-mod-ep mesh ({@code fully_shard(transformer_block.moe.experts, mesh=
     * dp_mod_ep_mesh)}) and sets the prefetches itself, the output's to the last block alone ({@code model.output.
     * set_modules_to_backward_prefetch([reversed_transformer_blocks[0]])}; the experts are gathered by that block's own
     * backward, after the peak): torchtitan/models/llama4/infra/parallelize.py, apply_fsdp, pytorch/torchtitan@
     * 2645c02d392641f6f78c43dbc20f27e3f0849182, which deepseek_v3 and qwen3 call.
     */
    static boolean prefetchedExperts(Layout l) {
        return l.ep() <= 1;
    }
}
