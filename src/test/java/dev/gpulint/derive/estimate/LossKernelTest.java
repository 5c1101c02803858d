package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.EstimateManifest;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import org.junit.jupiter.api.Test;

/**
 * Which loss a job's format runs (LossKernel.of) and what the plan says of it: torchtitan's eager F.cross_entropy
 * (TORCH) unless compiled (then not verified: native, said so); a Megatron-LM script's Transformer Engine loss with the
 * newer Megatron-LM's refusal named. The bytes are MemoryModelTest's. Our own fixtures, in the shapes of torchtitan's TOML
 * and a Megatron-LM launch script.
 */
class LossKernelTest {

    @Test
    void torchtitansLossIsItsOwnUnlessCompiled() {
        Recipes.Torchtitan eager = Recipes.torchtitan("8B").training("local_batch_size = 1", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1", "tensor_parallel_degree = 2");
        Specs.Job j = Foreign.bind("llama3_8b.toml", eager.toml());
        assertEquals(LossKernel.TORCH, LossKernel.of(j));
        assertTrue(LossKernel.TORCH.describe(j, ModelShape.Dtype.BF16).startsWith("; the job's loss is torchtitan's cross_entropy_loss, eager (F.cross_entropy"
                + " on pred.float(), torchtitan/components/loss.py; loss_parallel under tp)"), LossKernel.TORCH.describe(j, ModelShape.Dtype.BF16));
        Specs.Job compiled = Foreign.bind("llama3_8b.toml", Recipes.torchtitan("8B").training("local_batch_size = 1", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1", "tensor_parallel_degree = 2").table("[compile]\nenable = true").toml());
        assertEquals(LossKernel.NATIVE, LossKernel.of(compiled));
        assertTrue(LossKernel.NATIVE.describe(compiled, ModelShape.Dtype.BF16).contains("torch.compile: what Inductor's partition keeps for its backward is"
                + " not verified here"), LossKernel.NATIVE.describe(compiled, ModelShape.Dtype.BF16));
        // torchtitan compiles the loss only with "loss" among [compile] components (build_cross_entropy_loss:
        // compile.enable and "loss" in compile.components), whatever it does with the model; [training] compile compiles both
        Specs.Job modelOnly = Foreign.bind("llama3_8b.toml", Recipes.torchtitan("8B").training("local_batch_size = 1", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1", "tensor_parallel_degree = 2")
                .table("[compile]\nenable = true\ncomponents = [\"model\"]").toml());
        assertEquals(LossKernel.TORCH, LossKernel.of(modelOnly));
        Specs.Job lossOnly = Foreign.bind("llama3_8b.toml", Recipes.torchtitan("8B").training("local_batch_size = 1", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1", "tensor_parallel_degree = 2")
                .table("[compile]\nenable = true\ncomponents = [\"loss\"]").toml());
        assertEquals(LossKernel.NATIVE, LossKernel.of(lossOnly));
        assertTrue(LossKernel.NATIVE.describe(lossOnly, ModelShape.Dtype.BF16).contains("torch.compile: what Inductor's partition keeps"), LossKernel.NATIVE.describe(lossOnly, ModelShape.Dtype.BF16));
        Specs.Job older = Foreign.bind("llama3_8b.toml", Recipes.torchtitan("8B").training("local_batch_size = 1", "seq_len = 8192", "compile = true")
                .parallelism("data_parallel_shard_degree = -1", "tensor_parallel_degree = 2").toml());
        assertEquals(LossKernel.NATIVE, LossKernel.of(older));
        // [parallelism] disable_loss_parallel = true (earlier [training]): the logits whole on every tp rank
        Specs.Job whole = Foreign.bind("llama3_8b.toml", Recipes.torchtitan("8B").training("local_batch_size = 1", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1", "tensor_parallel_degree = 2", "disable_loss_parallel = true").toml());
        assertEquals(LossKernel.TORCH_REPLICATED, LossKernel.of(whole));
        assertTrue(LossKernel.TORCH_REPLICATED.describe(whole, ModelShape.Dtype.BF16).contains("disable_loss_parallel: the logits whole on every tp rank"),
                LossKernel.TORCH_REPLICATED.describe(whole, ModelShape.Dtype.BF16));
        // compiled ("loss" among the components) with disable_loss_parallel: the logits still whole on every tp rank
        Specs.Job compiledWhole = Foreign.bind("llama3_8b.toml", Recipes.torchtitan("8B").training("local_batch_size = 1", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1", "tensor_parallel_degree = 2", "disable_loss_parallel = true")
                .table("[compile]\nenable = true\ncomponents = [\"model\", \"loss\"]").toml());
        assertEquals(LossKernel.COMPILED_REPLICATED, LossKernel.of(compiledWhole));
        assertTrue(LossKernel.COMPILED_REPLICATED.describe(compiledWhole, ModelShape.Dtype.BF16).contains("with disable_loss_parallel: the logits whole on every"
                + " tp rank"), LossKernel.COMPILED_REPLICATED.describe(compiledWhole, ModelShape.Dtype.BF16));
        // written at tp 1, disable_loss_parallel is still the job's: the kernel does not read the stated tp, the layout's tp prices
        // it, so a plan's candidate at tp 2 gathers the logits as torchtitan would there (before, priced ÷ tp as loss_parallel)
        Specs.Job compiledTp1 = Foreign.bind("llama3_8b.toml", Recipes.torchtitan("8B").training("local_batch_size = 1", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1", "tensor_parallel_degree = 1", "disable_loss_parallel = true")
                .table("[compile]\nenable = true").toml());
        assertEquals(LossKernel.COMPILED_REPLICATED, LossKernel.of(compiledTp1));
        Specs.Job eagerWholeTp1 = Foreign.bind("llama3_8b.toml", Recipes.torchtitan("8B").training("local_batch_size = 1", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1", "tensor_parallel_degree = 1", "disable_loss_parallel = true").toml());
        assertEquals(LossKernel.TORCH_REPLICATED, LossKernel.of(eagerWholeTp1));
        // at tp 1 the replicated kernels cost what the sharded ones do (nothing to gather), at tp 2 more: per layout, not per job
        ModelShape m = ModelShape.gpt(32, 4096, 32, 51200, 2048, ModelShape.Dtype.BF16);
        Layout tp1 = new Layout(1, 1, 8, 1, 1, 1, 1, 64, 0, true, Layout.Recompute.SELECTIVE, false);
        Layout tp2 = new Layout(2, 1, 4, 1, 1, 1, 1, 64, 0, true, Layout.Recompute.SELECTIVE, true);
        assertEquals(MemoryModel.lossBytes(m, tp1, 1, LossKernel.TORCH), MemoryModel.lossBytes(m, tp1, 1, LossKernel.TORCH_REPLICATED), 1e-6);
        assertEquals(MemoryModel.lossBytes(m, tp1, 1, LossKernel.NATIVE), MemoryModel.lossBytes(m, tp1, 1, LossKernel.COMPILED_REPLICATED), 1e-6);
        assertTrue(MemoryModel.lossBytes(m, tp2, 1, LossKernel.TORCH_REPLICATED) > MemoryModel.lossBytes(m, tp2, 1, LossKernel.TORCH));
        // eager: the words hold for every candidate's tp, whatever tp the job states (the plan prints them once)
        String both = "its backward's fp32 temporaries beside it, at tp > 1 three, 12·s·b·V ÷ tp more at once (loss_parallel's fused"
                + " nll_loss and log_softmax backward, (zeros + exp(x))·grad, torch/distributed/tensor/parallel/loss.py), at tp 1 two fp32"
                + " gradients, 8·s·b·V (each layout at its own tp)";
        assertTrue(LossKernel.TORCH.describe(j, ModelShape.Dtype.BF16).contains(both), LossKernel.TORCH.describe(j, ModelShape.Dtype.BF16));
        Specs.Job eagerTp1 = Foreign.bind("llama3_8b.toml", Recipes.torchtitan("8B").training("local_batch_size = 1", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1", "tensor_parallel_degree = 1").toml());
        assertEquals(LossKernel.TORCH.describe(j, ModelShape.Dtype.BF16), LossKernel.TORCH.describe(eagerTp1, ModelShape.Dtype.BF16), "the stated tp does not change the words");
        Specs.Job olderWhole = Foreign.bind("llama3_8b.toml", Recipes.torchtitan("8B").training("local_batch_size = 1", "seq_len = 8192",
                "disable_loss_parallel = true").parallelism("data_parallel_shard_degree = -1", "tensor_parallel_degree = 2").toml());
        assertEquals(LossKernel.TORCH_REPLICATED, LossKernel.of(olderWhole));
        Specs.Job parallel = Foreign.bind("llama3_8b.toml", Recipes.torchtitan("8B").training("local_batch_size = 1", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1", "tensor_parallel_degree = 2", "disable_loss_parallel = false").toml());
        assertEquals(LossKernel.TORCH, LossKernel.of(parallel));
        // a Megatron-LM script stating Transformer Engine's loss: priced so, and the newer Megatron-LM's refusal said
        Specs.Job te = Foreign.bind("train.sh", MtpJobs.script(0, " --cross-entropy-loss-fusion --cross-entropy-fusion-impl te", 2));
        assertEquals(LossKernel.TE, LossKernel.of(te));
        assertTrue(LossKernel.TE.describe(te, ModelShape.Dtype.BF16).endsWith("; Megatron-LM since #5115 (2026-06) refuses it in validate_args (\"disabled due"
                + " to stability issues\"): a newer Megatron-LM stops before training, priced as the earlier versions ran it"),
                LossKernel.TE.describe(te, ModelShape.Dtype.BF16));
        // a Megatron-Bridge file's Transformer Engine loss runs (Bridge builds the config without validate_args): not said
        Specs.Job bridge = Foreign.bind("run_config.yaml", "model:\n  _target_: megatron.bridge.models.gpt_provider.GPTModelProvider\n"
                + "  tensor_model_parallel_size: 2\n  num_layers: 16\n  cross_entropy_loss_fusion: true\n  cross_entropy_fusion_impl: te\n"
                + "train:\n  micro_batch_size: 1\n  global_batch_size: 256\n");
        assertEquals(LossKernel.TE, LossKernel.of(bridge));
        assertTrue(!LossKernel.TE.describe(bridge, ModelShape.Dtype.BF16).contains("validate_args"), LossKernel.TE.describe(bridge, ModelShape.Dtype.BF16));
        // the native loss of a Megatron-LM script says nothing more
        assertEquals("", LossKernel.NATIVE.describe(Foreign.bind("train.sh", MtpJobs.script(0, "", 2)), ModelShape.Dtype.BF16));
    }

    /**
     * The assumptions print the widths lossBytes uses: with fp32 activations (ModelShape.Dtype.activationBytes 4) the inputs are
     * 8·s·b·h and the logits have no 16-bit copy; TE keeps fp32 logits, 4·s·b·V; the linear loss's gathered hidden states,
     * gradient split and d_weight are 4 bytes an element. bf16 and fp8 keep the 16-bit words.
     */
    @Test
    void theLossWordsPrintTheWidthsOfTheActivationsDtype() {
        assertTrue(MemoryModel.lossWords(2).contains("(4·s·b·h + 4·s·b·V) ÷ tp") && MemoryModel.lossWords(2).contains(
                "once the 16-bit logits beside their fp32 copy, 2·s·b·V ÷ tp"), MemoryModel.lossWords(2));
        assertTrue(MemoryModel.lossWords(4).contains("(8·s·b·h + 4·s·b·V) ÷ tp") && MemoryModel.lossWords(4).contains(
                "once nothing more: the logits are fp32 already") && !MemoryModel.lossWords(4).contains("16-bit logits"), MemoryModel.lossWords(4));
        Specs.Job te = Foreign.bind("train.sh", MtpJobs.script(0, " --cross-entropy-loss-fusion --cross-entropy-fusion-impl te", 2));
        assertTrue(LossKernel.TE.describe(te, ModelShape.Dtype.FP32).contains("it keeps the fp32 logits themselves for backward")
                && LossKernel.TE.describe(te, ModelShape.Dtype.FP32).contains("(8·s·b·h + 4·s·b·V) ÷ tp"), LossKernel.TE.describe(te, ModelShape.Dtype.FP32));
        assertTrue(LossKernel.TE.describe(te, ModelShape.Dtype.FP8).contains("it keeps the 16-bit logits themselves")
                && LossKernel.TE.describe(te, ModelShape.Dtype.FP8).contains("(4·s·b·h + 2·s·b·V) ÷ tp"), LossKernel.TE.describe(te, ModelShape.Dtype.FP8));
        String linear = LossKernel.LINEAR.describe(te, ModelShape.Dtype.FP32);
        assertTrue(linear.contains("gathered whole on every tp rank (4·s·b·h)") && linear.contains("split, 4·s·b·3072")
                && linear.contains("(d_weight, 4·V ÷ tp·h,"), linear);
    }

    /**
     * cross_entropy_fusion_impl linear with the fusion on is Megatron-Core's fused linear cross-entropy in every format that
     * reads the keys (gpt_model.py's fuse_linear_cross_entropy needs both); the impl without the fusion is not used.
     */
    @Test
    void theLinearImplIsTheFusedLinearCrossEntropy() {
        Specs.Job script = Foreign.bind("train.sh", MtpJobs.script(0, " --cross-entropy-loss-fusion --cross-entropy-fusion-impl linear", 2));
        assertEquals(Specs.CrossEntropy.LINEAR, script.model().crossEntropy().value());
        assertEquals(LossKernel.LINEAR, LossKernel.of(script));
        assertTrue(LossKernel.LINEAR.describe(script, ModelShape.Dtype.BF16).startsWith("; the job's loss is Megatron-Core's fused linear cross-entropy"
                + " (cross_entropy_fusion_impl linear: LinearCrossEntropy, megatron/core/fusions/fused_linear_cross_entropy.py): the"
                + " logits are never whole"), LossKernel.LINEAR.describe(script, ModelShape.Dtype.BF16));
        assertTrue(LossKernel.LINEAR.describe(script, ModelShape.Dtype.BF16).contains("(the split the default, LCE_FWD_VOCAB_SPLIT_SIZE /"
                + " LCE_BWD_VOCAB_SPLIT_SIZE = 512·6;"), LossKernel.LINEAR.describe(script, ModelShape.Dtype.BF16));
        // the backward's output-weight gradient, allocated whole and handed to autograd, is said beside the split buffer
        assertTrue(LossKernel.LINEAR.describe(script, ModelShape.Dtype.BF16).contains(", with the output weight's gradient it allocates whole (d_weight,"
                + " 2·V ÷ tp·h, for autograd, not written into main_grad)"), LossKernel.LINEAR.describe(script, ModelShape.Dtype.BF16));
        // the MTP layers' losses are not fused (process_mtp_loss calls the output layer without labels): said with their logits
        assertTrue(LossKernel.LINEAR.describe(script, ModelShape.Dtype.BF16).endsWith("; an MTP layer's loss, if the model has any, is not"
                + " fused: process_mtp_loss calls the output layer without labels (multi_token_prediction.py at 00611e6e), so each"
                + " depth's logits are made, 2·s·b·V ÷ tp, and its cross-entropy is priced as the native one's (priced as at that"
                + " commit: later Megatron-Core main passes output_cross_entropy_loss=True and the labels when the impl is linear,"
                + " fusing them too; which Megatron-Core the job's container runs is not read)"),
                LossKernel.LINEAR.describe(script, ModelShape.Dtype.BF16));
        Specs.Job implAlone = Foreign.bind("train.sh", MtpJobs.script(0, " --cross-entropy-fusion-impl linear", 2));
        assertEquals(LossKernel.NATIVE, LossKernel.of(implAlone), "the impl without the fusion is not used");
        String bridge = "model:\n  _target_: megatron.bridge.models.gpt_provider.GPTModelProvider\n  tensor_model_parallel_size: 2\n"
                + "  num_layers: 16\n  cross_entropy_loss_fusion: %s\n  cross_entropy_fusion_impl: linear\n"
                + "train:\n  micro_batch_size: 1\n  global_batch_size: 256\n";
        Specs.Job on = Foreign.bind("run_config.yaml", bridge.formatted("true"));
        assertEquals(LossKernel.LINEAR, LossKernel.of(on));
        assertEquals(6, on.model().crossEntropy().span().startLine(), "at the impl");
        assertEquals(LossKernel.NATIVE, LossKernel.of(Foreign.bind("run_config.yaml", bridge.formatted("false"))));
        // the native manifest's kernel: linear
        JobEstimate linear = native8b("linear"), nat = native8b("native");
        assertEquals(LossKernel.LINEAR, LossKernel.of(linear.job().spec()));
        // tp 1, s 8,192, b 1, h 4,096, V 128,256: native 4·s·b·h + 6·s·b·V; linear 2·s·b·h (norm) + 2·s·b·h (hidden) + 8·s·b
        // + max(2·s·b·3,072 + 2·V·h (d_weight, the output weight's gradient, 1,050,673,152), 8·s·b·⌈128,256 ÷ 3,072⌉ = 8·s·b·42):
        // the difference 6·s·b·V − 8·s·b − 2·s·b·3,072 − 2·V·h
        double sb = 8192;
        assertEquals(6 * sb * 128256 - 8 * sb - 2 * sb * 3072 - 2.0 * 128256 * 4096,
                nat.estimate().stages().get(0).activations() - linear.estimate().stages().get(0).activations(), 1);
    }

    /** The native manifest's model.loss.kernel reaches the loss's pricing: te keeps the 16-bit logits, not the fp32 softmax. */
    @Test
    void theNativeLossKernelIsPriced() {
        JobEstimate te = native8b("te"), nat = native8b("native"), unfused = native8b("unfused");
        assertEquals(LossKernel.TE, LossKernel.of(te.job().spec()));
        assertEquals(LossKernel.NATIVE, LossKernel.of(nat.job().spec()));
        assertEquals(LossKernel.NATIVE, LossKernel.of(unfused.job().spec()));
        // tp 1, s 8192, b 1, V 128,256 (LLAMA3_8B), 16-bit: native 4·s·b·V + 2·s·b·V (fp32 softmax, bf16 copy), te 2·s·b·V
        double less = 4.0 * 8192 * 128256;      // 6·s·b·V − 2·s·b·V
        assertEquals(less, nat.estimate().stages().get(0).activations() - te.estimate().stages().get(0).activations(), 1);
        assertTrue(te.inputs().assumptions().stream().anyMatch(a -> a.contains("the job's loss is Transformer Engine's fused cross-entropy")));
    }

    private static JobEstimate native8b(String kernel) {
        return EstimateManifest.on("H100-SXM5-80GB").nodes(1).model(EstimateManifest.LLAMA3_8B + ", seq_length: 8192, loss: { kernel: " + kernel + " }")
                .parallelism("tp: 1").batch(1, 64).optimizer("zero_stage: 1").recompute("selective").estimate();
    }
}
