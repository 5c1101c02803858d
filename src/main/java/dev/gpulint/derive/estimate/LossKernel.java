package dev.gpulint.derive.estimate;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Specs;

/**
 * Which cross-entropy computes a loss, for what the stage computing it holds ({@link MemoryModel#lossBytes}).
 * <ul>
 * <li>{@link #NATIVE}: Megatron-Core's own, unfused ({@code tensor_parallel.vocab_parallel_cross_entropy}, its default) or
 *     fused ({@code fused_vocab_parallel_cross_entropy}, {@code cross_entropy_fusion_impl = "native"}): both upcast the
 *     logits and save their fp32 softmax.
 * <li>{@link #TE}: Transformer Engine's ({@code cross_entropy_loss_fusion} with {@code cross_entropy_fusion_impl = "te"}:
 *     language_module.py's compute_language_model_loss calls {@code te_parallel_cross_entropy}, github.com/NVIDIA/Megatron-LM
 *     megatron/core/models/common/language_module/language_module.py and megatron/core/extensions/transformer_engine.py).
 *     Its Triton kernels (transformer_engine/pytorch/triton/cross_entropy.py) read the logits in their own dtype and upcast
 *     them block by block in registers (an online softmax), writing 3 fp32 statistics per row (max, sum, the target's
 *     logit), all-gathered over tp; no fp32 copy of the logits is made. What it keeps for backward is the logits tensor
 *     itself: in github.com/NVIDIA/TransformerEngine at 02965d2eba9d93d129f25942f8ef1352f2eefd2d
 *     (transformer_engine/pytorch/cross_entropy.py, CrossEntropyFunction.forward: {@code ctx.save_for_backward(_input.detach(),
 *     target.detach(), m_d_X_y.detach())}) the backward kernel writes the gradient into it in place ("performed in-place on
 *     the tensor pointed by X_ptr"); in the earlier form (github.com/cuichenx/TransformerEngine, a fork, at
 *     066bb380d1a03e0c312ca4ce6612625d07e2fa35, same files) the forward kernel already writes the gradient into the logits
 *     and returns them to be saved, the backward only scales them (element_mul_kernel). Either way the stage holds the
 *     logits' s·b·V ÷ tp elements in the activations' dtype from the loss's forward to its backward, and the statistics'
 *     12·tp bytes per row (12·s·b·tp, against 2·s·b·V ÷ tp for the logits: 0.3 % at V 128k and tp 8) are not priced.
 *     Megatron-LM's training entry refuses it since NVIDIA/Megatron-LM#5115 (2026-06): validate_args asserts
 *     "Transformer Engine cross entropy loss fusion is disabled due to stability issues" and Megatron-Core's
 *     ModelParallelConfig only warns (tests/unit_tests/test_model_parallel_config.py at
 *     0755aa8651419876b4787d6e2540e24756ba1309: test_te_cross_entropy_loss_fusion_is_disabled_by_training_args,
 *     test_te_cross_entropy_loss_fusion_warns_in_model_parallel_config); a script does not say its Megatron-LM version, so
 *     a Megatron-LM job that states it is priced as the earlier versions ran it, and the assumptions say a newer one stops
 *     before training. Megatron-Bridge and NeMo 2 build the config without validate_args: it runs there.
 * <li>{@link #TORCH}: torchtitan's {@code cross_entropy_loss}, eager (torchtitan without torch.compile): plain PyTorch
 *     {@code F.cross_entropy(pred.flatten(0, 1).float(), labels.flatten(0, 1))} (github.com/pytorch/torchtitan,
 *     torchtitan/components/loss.py, as the code index stores its 2025 versions; build_cross_entropy_loss compiles it only
 *     with {@code [compile] enable} and "loss" in its components), under tensor parallelism inside {@code loss_parallel()},
 *     the output a DTensor sharded on the vocabulary (ColwiseParallel with {@code Shard(-1)} unless
 *     {@code disable_loss_parallel}), so every vocabulary term ÷ tp. Its autograd graph is {@code .float()} (an fp32 copy,
 *     nothing saved), log_softmax (saves its fp32 output) and nll_loss: it keeps the fp32 log-probabilities, 4·s·b·V ÷ tp;
 *     the bf16 logits and the fp32 copy live only through the forward (torchtitan's train step deletes {@code pred}), and in
 *     its backward NllLossBackward's dense fp32 gradient and LogSoftmaxBackward's new fp32 gradient sit beside the saved
 *     log-probabilities, 8·s·b·V more at once at tp 1 (plain ATen kernels; the forward's 2 + 4 is less). Under
 *     loss_parallel (tp &gt; 1) the DTensor handlers run instead (pytorch/pytorch torch/distributed/tensor/parallel/loss.py
 *     at 3be123821b3b3acc68bf0cba5d466c9dee8069fa): the forward's _log_softmax makes {@code shifted = x - x_max},
 *     {@code torch.exp(shifted)} and {@code result = shifted - logsumexp} (fp32, the all-reduces on [N, 1] only), so 2 + 4
 *     + 4 + 4 at its peak; the backward's _nll_loss_and_log_softmax_backward fuses both gradients as
 *     {@code (grad_input + torch.exp(x)) * grad_output} on a {@code zeros_like(x)}, three fp32 temporaries beside the saved
 *     log-probabilities at once (zeros, exp, their sum; then zeros, sum, product), and _log_softmax_backward_handler only
 *     returns the gradient ({@code .to} its own dtype): 12·s·b·V ÷ tp more at once, the larger moment
 *     ({@link MemoryModel#torchLossOnce}). The output layer's input is the whole
 *     s·b·h on every tp rank: ColwiseParallel redistributes the norm's sequence shard to Replicate and the matmul saves the
 *     gathered input (the final norm, SequenceParallel, keeps its shard). A compiled loss (Inductor's partition of the
 *     same graph) is not verified here: it keeps {@link #NATIVE}'s price, and the assumptions say so; with
 *     {@code disable_loss_parallel} at tp &gt; 1, {@link #COMPILED_REPLICATED}.
 * </ul>
 */
public enum LossKernel {
    NATIVE, TE, TORCH,
    /**
     * Megatron-Core's fused linear cross-entropy ({@code cross_entropy_loss_fusion} with {@code cross_entropy_fusion_impl =
     * "linear"}: GPTModel's output layer becomes a LinearCrossEntropyModule whose forward computes the loss from the hidden
     * states and the output weight, megatron/core/models/gpt/gpt_model.py's fuse_linear_cross_entropy). The logits are never a
     * whole tensor: LinearCrossEntropy (github.com/NVIDIA/Megatron-LM megatron/core/fusions/fused_linear_cross_entropy.py at
     * 020c805b45cc379c84f8f408bc44f6ea613e6ac9) saves {@code (global_hidden, weight, labels, _maximum, _acc,
     * _num_valid_tokens)}; its kernels (linear_cross_entropy/blackwell/entry.py at 06ef4e2796cac503eb1aab4cc0bf9b5848a5fde4)
     * walk the vocabulary shard in splits of {@code LCE_FWD_VOCAB_SPLIT_SIZE} / {@code LCE_BWD_VOCAB_SPLIT_SIZE} columns
     * (default 512·6 = 3,072): the forward keeps per row and split an fp32 maximum and sum ({@code _max}, {@code _accu}, and
     * under tp a {@code _max_backup} clone), reduced to the two fp32 statistics per row it saves; the backward writes one
     * split's logits' gradient at a time, {@code _d_logits} of tokens × 3,072 in the hidden states' dtype. With sequence
     * parallelism the forward all-gathers the hidden states ({@code dist.all_gather_into_tensor}) and saves the gathered
     * whole, s·b·h on every tp rank. So per loss: the final norm's input, the whole hidden states and 8 bytes a row; once, the
     * larger of the split buffers ({@link MemoryModel#lossBytes}). At that commit Platform accepts compute capability 10
     * (Blackwell) only and raises ValueError elsewhere; the code index also holds a hopper/entry.py (at
     * f6282a8fb81eb0fe1d19e4f5589fa0aa6a70db9f, the same splits and saved tensors), not tied to a release here.
     */
    LINEAR,
    /**
     * {@link #TORCH} with {@code disable_loss_parallel} at tp &gt; 1: torchtitan's apply_tp gives the output layer
     * {@code output_layouts=Shard(-1) if loss_parallel else Replicate()} (torchtitan/models/llama3/infra/parallelize.py), so
     * the logits are all-gathered and the same eager loss runs on the whole vocabulary on every tp rank: its vocabulary
     * terms are not ÷ tp.
     */
    TORCH_REPLICATED,
    /**
     * torchtitan's loss compiled ({@code compile.components} holding "loss") with {@code disable_loss_parallel} at tp &gt; 1:
     * the logits are all-gathered whole on every tp rank as for {@link #TORCH_REPLICATED}, and the compiled graph, not
     * verified, keeps {@link #NATIVE}'s price (its fp32 softmax and 16-bit copy) on the whole vocabulary, not ÷ tp.
     */
    COMPILED_REPLICATED;

    /**
     * The job's: TE when its model states Transformer Engine's cross-entropy; TORCH for a torchtitan job whose loss is not
     * compiled (no {@code [compile] enable}, torchtitan's default, or "loss" not among its components); else native
     * (Megatron-Core's default).
     */
    public static LossKernel of(Specs.Job j) {
        Specs.Model m = j == null ? null : j.model();
        if (m != null && m.crossEntropy() != null && m.crossEntropy().value() == Specs.CrossEntropy.TE) return TE;
        if (m != null && m.crossEntropy() != null && m.crossEntropy().value() == Specs.CrossEntropy.LINEAR) return LINEAR;
        if (!torchtitan(j)) return NATIVE;
        if (compiled(j)) return lossParallelOff(j) ? COMPILED_REPLICATED : NATIVE;
        return lossParallelOff(j) ? TORCH_REPLICATED : TORCH;
    }

    /**
     * The vocabulary columns the fused linear cross-entropy ({@link #LINEAR}) computes at a time: LCE_FWD_VOCAB_SPLIT_SIZE and
     * LCE_BWD_VOCAB_SPLIT_SIZE's default, 512·6 (megatron/core/fusions/linear_cross_entropy/blackwell/entry.py at
     * 06ef4e2796cac503eb1aab4cc0bf9b5848a5fde4, FwdConfig and BwdConfig; the same in hopper/entry.py).
     */
    public static final int LINEAR_SPLIT = 512 * 6;

    /**
     * torchtitan's {@code disable_loss_parallel} written true (TorchtitanAdapter states it), whatever tp the job states: the
     * kernel is the job's, and the layout's tp prices it (MemoryModel#lossBytes divides the vocabulary terms by the layout's tp
     * for TORCH and NATIVE, by 1 for the replicated two), so a plan's candidate at tp 8 of a job written at tp 1 is priced as
     * torchtitan would run it there (the logits replicated); at tp 1 the replicated kernels cost what TORCH and NATIVE do.
     */
    private static boolean lossParallelOff(Specs.Job j) {
        for (Specs.Stated s : j.origin().stated()) if (s.quantity().equals(Specs.Origin.LOSS_PARALLEL)) return s.value().equals("off");
        return false;
    }

    private static boolean torchtitan(Specs.Job j) {
        return j != null && j.origin() != null && Format.of(j.origin().format()) == Format.TORCHTITAN;
    }

    /**
     * torchtitan compiles its loss: {@code [compile] enable} with "loss" among its components (default ["model", "loss"]),
     * or the older {@code [training] compile} (build_cross_entropy_loss, torchtitan/components/loss.py), whatever it does
     * with the model (CompileSettings states it).
     */
    private static boolean compiled(Specs.Job j) {
        for (Specs.Stated s : j.origin().stated()) if (s.quantity().equals(Specs.Origin.LOSS_COMPILE)) return s.value().equals("compiled");
        return false;
    }

    /**
     * The job's loss was read from Megatron-LM's flags (a Megatron-LM script, or one a launcher runs), which its training
     * entry's validate_args checks; Megatron-Bridge, NeMo 2 and NeMo-RL build Megatron-Core's config without it, and a
     * native manifest's model.loss.kernel names the kernel, not the Megatron-LM that would refuse it.
     */
    private static boolean megatronLmFlags(Specs.Job j) {
        if (j == null || j.origin() == null) return false;
        Format f = Format.of(j.origin().format());
        return f != Format.NATIVE && f != Format.MEGATRON_BRIDGE && f != Format.NEMO2_RECIPE && f != Format.NEMO_RL && f != Format.NEMO;
    }

    /**
     * The plan's words for what this kernel changes in {@link MemoryModel#lossWords} for job {@code j}, empty when nothing, with
     * the widths {@link MemoryModel#lossBytes} uses for its activations' dtype: an element of the logits, the hidden states
     * and their gradients {@code dtype.activationBytes()} bytes (2 for 16-bit and fp8 training, 4 for fp32).
     */
    public String describe(Specs.Job j, ModelShape.Dtype dtype) {
        int a = dtype.activationBytes();
        String width = a < 4 ? 8 * a + "-bit" : "fp32";
        return switch (this) {
            case TE -> "; the job's loss is Transformer Engine's fused cross-entropy (cross_entropy_fusion_impl te:"
                    + " te_parallel_cross_entropy): it keeps the " + width + " logits themselves for backward and writes the gradient"
                    + " into them in place, no fp32 softmax nor fp32 copy, so per loss and micro-batch (" + 2 * a + "·s·b·h + " + a
                    + "·s·b·V) ÷ tp and nothing"
                    + " more while it runs (TransformerEngine transformer_engine/pytorch/triton/cross_entropy.py)"
                    + (megatronLmFlags(j) ? "; Megatron-LM since #5115 (2026-06) refuses it in validate_args (\"disabled due to stability issues\"):"
                              + " a newer Megatron-LM stops before training, priced as the earlier versions ran it" : "");
            case TORCH -> "; the job's loss is torchtitan's cross_entropy_loss, eager (F.cross_entropy on pred.float(),"
                    + " torchtitan/components/loss.py; loss_parallel under tp): it keeps the fp32 log-softmax, 4·s·b·V ÷ tp, and "
                    + "its backward's fp32 temporaries beside it, at tp > 1 three, 12·s·b·V ÷ tp more at once (loss_parallel's"
                    + " fused nll_loss and log_softmax backward, (zeros + exp(x))·grad, torch/distributed/tensor/parallel/loss.py), at"
                    + " tp 1 two fp32 gradients, 8·s·b·V (each layout at its own tp)"
                    + ", instead of Megatron's " + (a < 4 ? width + " copy" : "fp32 softmax") + "; the output layer's input whole on"
                    + " every tp rank (ColwiseParallel gathers the sequence: " + a + "·s·b·h), the final norm's its shard";
            case TORCH_REPLICATED -> "; the job's loss is torchtitan's cross_entropy_loss, eager (F.cross_entropy on pred.float(),"
                    + " torchtitan/components/loss.py) with disable_loss_parallel: the logits whole on every tp rank (the output"
                    + " layer's output Replicate, apply_tp), so it keeps the fp32 log-softmax, 4·s·b·V, and its backward's two fp32"
                    + " gradients beside it, 8·s·b·V more at once, none ÷ tp; the output layer's input whole on every tp rank"
                    + " (" + a + "·s·b·h), the final norm's its shard; remove disable_loss_parallel to divide them by tp";
            case COMPILED_REPLICATED -> "; the job's loss is torchtitan's cross_entropy_loss compiled with torch.compile, with"
                    + " disable_loss_parallel: the logits whole on every tp rank (the output layer's output Replicate, apply_tp); what"
                    + " Inductor's partition keeps for its backward is not verified here, priced as Megatron-Core's native loss on the"
                    + " whole vocabulary, 4·s·b·V" + (a < 4 ? " and " + a + "·s·b·V" : "") + " not ÷ tp; remove disable_loss_parallel to divide them by tp";
            case LINEAR -> "; the job's loss is Megatron-Core's fused linear cross-entropy (cross_entropy_fusion_impl linear:"
                    + " LinearCrossEntropy, megatron/core/fusions/fused_linear_cross_entropy.py): the logits are never whole, it saves"
                    + " the hidden states gathered whole on every tp rank (" + a + "·s·b·h) and two fp32 statistics per row (8·s·b) per loss"
                    + " instead of the fp32 softmax, and once the larger of its split buffers, the backward's logits' gradient of one"
                    + " split, " + a + "·s·b·" + LINEAR_SPLIT + ", with the output weight's gradient it allocates whole (d_weight, " + a
                    + "·V ÷ tp·h,"
                    + " for autograd, not written into main_grad), or the forward's three fp32 per-split statistics, 12·s·b·⌈V ÷ tp ÷ "
                    + LINEAR_SPLIT + "⌉ (the split the default, LCE_FWD_VOCAB_SPLIT_SIZE / LCE_BWD_VOCAB_SPLIT_SIZE = 512·6;"
                    + " linear_cross_entropy/blackwell/entry.py); fused_linear_cross_entropy.py at 020c805 runs it on Blackwell"
                    + " (compute capability 10) only, ValueError elsewhere; an MTP layer's loss, if the model has any, is not fused:"
                    + " process_mtp_loss calls the output layer without labels (multi_token_prediction.py at 00611e6e), so each depth's"
                    + " logits are made, " + a + "·s·b·V ÷ tp, and its cross-entropy is priced as the native one's (priced as at"
                    + " that commit: later Megatron-Core main passes output_cross_entropy_loss=True and the labels when the impl is"
                    + " linear, fusing them too; which Megatron-Core the job's container runs is not read)";
            case NATIVE -> torchtitan(j) ? "; the job's loss is torchtitan's cross_entropy_loss compiled with torch.compile: what"
                    + " Inductor's partition keeps for its backward is not verified here, priced as Megatron-Core's native loss" : "";
        };
    }
}
