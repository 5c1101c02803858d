package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What `gpulint plan` reads of an MoE model and of the attention variant from Megatron-LM's flags, on launch scripts of
 * our own in the shape of Megatron-LM's MoE README example and its DeepSeek-V3 and GPT-OSS recipes.
 */
class MegatronMoeFlagsTest {

    private static Specs.Job job(String text) {
        SourceFile f = SourceFile.of("train.sh", text);
        return Adapters.bind(List.of(new Adapters.Input(f, Readers.read(f).foreign()))).jobs().get(0);
    }

    private static final String DEEPSEEK_LIKE = """
            #!/bin/bash
            MOE_ARGS=(
              --num-experts 256 --moe-router-topk 8 --moe-ffn-hidden-size 2048 --moe-shared-expert-intermediate-size 2048
              --moe-layer-freq "([0]*3+[1]*58)" --moe-token-dispatcher-type flex --moe-grouped-gemm
              --moe-expert-capacity-factor 1.25 --moe-pad-expert-input-to-capacity --overlap-moe-expert-parallel-comm
              --multi-latent-attention --kv-lora-rank 512 --q-lora-rank 1536 --qk-head-dim 128 --qk-pos-emb-head-dim 64 --v-head-dim 128
            )
            torchrun --nnodes 32 --nproc_per_node 8 pretrain_gpt.py "${MOE_ARGS[@]}" \\
              --num-layers 61 --hidden-size 7168 --ffn-hidden-size 18432 --num-attention-heads 128 --swiglu \\
              --tensor-model-parallel-size 2 --pipeline-model-parallel-size 16 --expert-model-parallel-size 64 \\
              --expert-tensor-parallel-size 1 --micro-batch-size 1 --global-batch-size 4096 --seq-length 4096 --bf16
            """;

    @Test
    void everyMoeFlagIsRead() {
        Specs.Job j = job(DEEPSEEK_LIKE);
        Specs.Moe m = j.model().moe();
        assertEquals(8L, j.model().topK().value());
        assertEquals(18432L, j.model().ffnHiddenSize().value(), "--ffn-hidden-size: the dense layers'");
        assertEquals(2048L, m.expertFfn().value());
        assertEquals(2048L, m.sharedFfn().value());
        assertEquals("([0]*3+[1]*58)", m.layerFreq().value());
        assertEquals(4, m.layerFreq().span().startLine());
        assertEquals("flex", m.dispatcher().value());
        assertEquals(true, m.groupedGemm().value());
        assertEquals(1.25, m.capacityFactor().value());
        assertEquals(true, m.padToCapacity().value());
        assertEquals(true, m.overlapA2a().value());
        assertEquals(512L, j.model().attention().kvLoraRank().value());
        assertEquals(1536L, j.model().attention().qLoraRank().value());
        assertEquals(128L, j.model().attention().qkHeadDim().value());
        assertEquals(64L, j.model().attention().qkRopeHeadDim().value());
        assertEquals(128L, j.model().attention().vHeadDim().value());
        assertEquals(1L, j.parallelism().expertTp().value());
    }

    @Test
    void aLayerPatternThatDoesNotFitTheLayersIsReportedWhereItIsWritten() {
        SourceFile f = SourceFile.of("short.sh", """
                #!/bin/bash
                torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \\
                  --num-experts 64 --moe-layer-freq "([0]*1+[1]*22)" --expert-model-parallel-size 8
                """);
        var model = Adapters.bind(List.of(new Adapters.Input(f, Readers.read(f).foreign())));
        assertEquals(List.of("short.sh:3:37 SYN002 '--moe-layer-freq' is '([0]*1+[1]*22)': the pattern gives 23 layers but the model has 24."),
                model.findings().stream().map(x -> x.span() + " " + x.ruleId() + " " + x.message()).toList());
        assertNull(model.jobs().get(0).model().moe().layerFreq(), "bound as absent, as every value out of bounds");
    }

    @Test
    void withoutMoeGroupedGemmMegatronRunsOneGemmPerExpert() {
        Specs.Job j = job("""
                #!/bin/bash
                torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\
                  --num-experts 8 --expert-model-parallel-size 8 --moe-expert-capacity-factor None
                """);
        assertEquals(false, j.model().moe().groupedGemm().value(), "Megatron's SequentialMLP");
        assertEquals(3, j.model().moe().groupedGemm().span().startLine(), "stated where --num-experts is");
        assertNull(j.model().moe().capacityFactor(), "None: dropless, Megatron's default written out");
        assertNull(j.model().topK(), "--moe-router-topk not written: the estimate's default");
    }

    @Test
    void aDispatcherNotWrittenIsMegatronsAllgatherAndSaysSo() {
        Specs.Job j = job("""
                #!/bin/bash
                torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 32 --hidden-size 4096 --num-attention-heads 32 \\
                  --num-experts 8 --expert-model-parallel-size 8 --moe-grouped-gemm
                """);
        assertEquals("allgather", j.model().moe().dispatcher().value(), "--moe-token-dispatcher-type's default");
        assertEquals(3, j.model().moe().dispatcher().span().startLine(), "at --num-experts");
        assertEquals(List.of("--moe-token-dispatcher-type not written: the allgather dispatcher, Megatron-LM's default (Megatron-Core's"
                + " TransformerConfig.moe_token_dispatcher_type = \"allgather\"): every expert-parallel rank all-gathers the group's"
                + " tokens and reduce-scatters the outputs; write alltoall (or flex) for the all-to-all dispatch"), j.origin().unpriced());
        // written: as written, nothing to say
        Specs.Job written = job(DEEPSEEK_LIKE);
        assertEquals("flex", written.model().moe().dispatcher().value());
        assertEquals(List.of(), written.origin().unpriced().stream().filter(s -> s.contains("dispatcher")).toList());
        // a dense model: no dispatcher
        Specs.Job dense = job("""
                #!/bin/bash
                torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 32 --hidden-size 4096 --num-attention-heads 32
                """);
        assertNull(dense.model().moe());
    }

    @Test
    void aSlidingWindowAndItsSkipFrequencyAreRead() {
        Specs.Job j = job("""
                #!/bin/bash
                torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 36 --hidden-size 2880 --num-attention-heads 64 \\
                  --window-size "(128, 0)" --window-attn-skip-freq 2
                """);
        assertEquals(128L, j.model().attention().window().value());
        assertEquals(2L, j.model().attention().fullEvery().value());
        assertNull(j.model().moe(), "a dense model states nothing of MoE");
        Specs.Job unlimited = job("""
                #!/bin/bash
                torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 36 --hidden-size 2880 --num-attention-heads 64 --window-size "(-1,0)"
                """);
        assertNull(unlimited.model().attention(), "(-1, 0): no window");
    }
}
