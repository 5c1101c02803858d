package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.EstimateManifest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An MXFP8 job on a GPU with an MXFP8 path says what of MXFP8 is priced and what is not (Hardwares.mxfp8Casts; docs/plan.md,
 * "Llama 3.1 405B at tp 4, pp 8, cp 2, vp 8 on Blackwell, term by term"); an fp8 job, and an MXFP8 job on a GPU that runs it
 * as fp8, say nothing of it.
 */
class Mxfp8CastsTest {

    private static final String SAID = "mxfp8: GEMMs priced at gemm_mxfp8 (an MXFP8 GEMM runs at 0.99 of fp8's rate, FlashInfer"
            + " pull 2256 on B200) and the casts as per-tensor fp8's; MXFP8's quantization beyond that is not priced: NVIDIA's"
            + " Megatron-Bridge runs measure MXFP8 3.6–7.3 % slower than fp8 current scaling at the same layout and release, so the"
            + " step can be that much longer";

    private static List<String> assumptions(String gpu, int perNode, String dtype) {
        return EstimateManifest.on(gpu).gpusPerNode(perNode)
                .model(EstimateManifest.LLAMA3_8B.replace("dtype: bf16", "dtype: " + dtype) + ", seq_length: 8192")
                .parallelism("tp: 1, pp: 1").batch(2, 128).estimate().inputs().assumptions();
    }

    @Test
    void anMxfp8JobOnBlackwellNamesWhatIsNotPriced() {
        List<String> as = assumptions("GB200", 4, "mxfp8");
        assertEquals(1, as.stream().filter(SAID::equals).count(), String.join("\n", as));
    }

    @Test
    void anFp8JobSaysNothingOfMxfp8() {
        List<String> as = assumptions("GB200", 4, "fp8");
        assertTrue(as.stream().noneMatch(a -> a.startsWith("mxfp8:")), String.join("\n", as));
    }

    @Test
    void anMxfp8JobOnAGpuWithoutThePathIsPricedAsFp8AndSaysSoInstead() {
        List<String> as = assumptions("H100-SXM5-80GB", 8, "mxfp8");
        assertTrue(as.stream().noneMatch(a -> a.startsWith("mxfp8:")), String.join("\n", as));
        assertTrue(as.stream().anyMatch(a -> a.startsWith("H100-SXM5-80GB has no mxfp8 tensor path in the catalog: its GEMMs are priced on the fp8 path")),
                String.join("\n", as));
    }
}
