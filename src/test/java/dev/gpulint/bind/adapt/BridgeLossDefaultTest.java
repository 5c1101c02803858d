package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.estimate.LossKernel;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import org.junit.jupiter.api.Test;

/**
 * The loss a Megatron-Bridge file runs when it names its provider and writes neither cross_entropy_loss_fusion nor
 * cross_entropy_fusion_impl (CrossEntropyFusion#bridge): Llama3ModelProvider8B / 70B and Llama31ModelProvider405B declare
 * impl "te" beside GPTModelProvider's fusion True, so Transformer Engine's loss, at the {@code _target_}, said in the
 * assumptions; the other providers' fused native loss is priced as the native one; the DeepSeek providers changed between
 * Bridge versions and are priced with the newer (native), said so. Our own fixtures, in the shape of Megatron-Bridge's
 * ConfigContainer YAML.
 */
class BridgeLossDefaultTest {

    /** A Bridge run dump naming {@code provider} (under megatron.bridge.models.), tp 2 with SP, 16 layers; {@code extra} model lines. */
    private static String bridge(String provider, String extra) {
        return """
                _target_: megatron.bridge.training.config.ConfigContainer
                model:
                  _target_: megatron.bridge.models.%s
                  tensor_model_parallel_size: 2
                  sequence_parallel: true
                  num_layers: 16
                %s
                train:
                  micro_batch_size: 1
                  global_batch_size: 256
                """.formatted(provider, extra);
    }

    @Test
    void llama3sProvidersRunTransformerEnginesLossAtTheirTarget() {
        for (String cls : new String[] {"Llama3ModelProvider8B", "Llama3ModelProvider70B", "Llama31ModelProvider405B"}) {
            Specs.Job j = Foreign.bind("run_config.yaml", bridge("llama.llama_provider." + cls, ""));
            assertEquals(Specs.CrossEntropy.TE, j.model().crossEntropy().value(), cls);
            assertEquals(3, j.model().crossEntropy().span().startLine(), cls + ": at the _target_ that names the class");
            assertEquals(LossKernel.TE, LossKernel.of(j), cls);
            assertTrue(j.origin().unpriced().contains("model.cross_entropy_loss_fusion / cross_entropy_fusion_impl not written:"
                    + " Transformer Engine's loss, Megatron-Bridge's " + cls + " default (" + cls + ".cross_entropy_fusion_impl = \"te\","
                    + " llama/llama_provider.py at 2afd2d3, with GPTModelProvider.cross_entropy_loss_fusion = True, gpt_provider.py at"
                    + " 0254ddd)"), j.origin().unpriced().toString());
        }
    }

    @Test
    void theOtherProvidersDefaultingToTransformerEnginesLossRunItAndSayWhere() {
        // SarvamMoEModelProvider: impl te declared, the fusion GPTModelProvider's True (sarvam/sarvam_provider.py at da98e6c)
        Specs.Job sarvam = Foreign.bind("run_config.yaml", bridge("sarvam.sarvam_provider.SarvamMoEModelProvider", ""));
        assertEquals(LossKernel.TE, LossKernel.of(sarvam));
        assertEquals(3, sarvam.model().crossEntropy().span().startLine(), "at the _target_ that names the class");
        assertTrue(sarvam.origin().unpriced().contains("model.cross_entropy_loss_fusion / cross_entropy_fusion_impl not written:"
                + " Transformer Engine's loss, Megatron-Bridge's SarvamMoEModelProvider default (SarvamMoEModelProvider"
                + ".cross_entropy_fusion_impl = \"te\", sarvam/sarvam_provider.py at da98e6c, with GPTModelProvider"
                + ".cross_entropy_loss_fusion = True, gpt_provider.py at 0254ddd)"), sarvam.origin().unpriced().toString());
        // Step-3.5 (the SwiGLU-clamp models, a fork's providers): both keys declared, the Mini3B inherits them
        for (String cls : new String[] {"Step3p5ModelProvider", "Step3p5ModelProviderMini3B"}) {
            Specs.Job step = Foreign.bind("run_config.yaml", bridge("step3p5.step3p5_provider." + cls, ""));
            assertEquals(LossKernel.TE, LossKernel.of(step), cls);
            assertTrue(step.origin().unpriced().contains("model.cross_entropy_loss_fusion / cross_entropy_fusion_impl not written:"
                    + " Transformer Engine's loss, Megatron-Bridge's " + cls + " default (Step3p5ModelProvider.cross_entropy_fusion_impl"
                    + " = \"te\" and cross_entropy_loss_fusion = True, step3p5/step3p5_provider.py at fc29f8b in the"
                    + " yevvonlim/Megatron-Bridge fork)"), step.origin().unpriced().toString());
        }
        // SarvamMLAModelProvider declares impl te, but its fusion ends off (MLATransformerConfig's fields last in the reversed
        // MRO, as MLAModelProvider's), and KimiK25VLModelProvider extends KimiK2Provider (an MLAModelProvider): native, silent
        for (String p : new String[] {"sarvam.sarvam_provider.SarvamMLAModelProvider", "kimi_vl.kimi_k25_vl_provider.KimiK25VLModelProvider"}) {
            Specs.Job j = Foreign.bind("run_config.yaml", bridge(p, ""));
            assertNull(j.model().crossEntropy(), p);
            assertEquals(LossKernel.NATIVE, LossKernel.of(j), p);
            assertFalse(j.origin().unpriced().stream().anyMatch(u -> u.contains("cross_entropy")), p + ": " + j.origin().unpriced());
        }
        // a written key still wins over the class's default
        Specs.Job off = Foreign.bind("run_config.yaml", bridge("sarvam.sarvam_provider.SarvamMoEModelProvider", "  cross_entropy_fusion_impl: native"));
        assertEquals(LossKernel.NATIVE, LossKernel.of(off));
    }

    @Test
    void aWrittenKeyWinsOverTheProvidersDefault() {
        // the fusion written off: Megatron-Core's unfused loss, whatever the class; no default said
        Specs.Job off = Foreign.bind("run_config.yaml", bridge("llama.llama_provider.Llama3ModelProvider8B", "  cross_entropy_loss_fusion: false"));
        assertEquals(Specs.CrossEntropy.NATIVE, off.model().crossEntropy().value());
        assertEquals(7, off.model().crossEntropy().span().startLine(), "at the written fusion");
        assertFalse(off.origin().unpriced().stream().anyMatch(u -> u.contains("cross_entropy")), off.origin().unpriced().toString());
        // the impl written native: the fused native loss
        Specs.Job nat = Foreign.bind("run_config.yaml", bridge("llama.llama_provider.Llama3ModelProvider70B", "  cross_entropy_fusion_impl: native"));
        assertEquals(Specs.CrossEntropy.NATIVE, nat.model().crossEntropy().value());
        assertEquals(LossKernel.NATIVE, LossKernel.of(nat));
        // the fusion written on, the impl the class's: te, and the line names the impl alone as taken
        Specs.Job on = Foreign.bind("run_config.yaml", bridge("llama.llama_provider.Llama3ModelProvider8B", "  cross_entropy_loss_fusion: true"));
        assertEquals(Specs.CrossEntropy.TE, on.model().crossEntropy().value());
        assertTrue(on.origin().unpriced().stream().anyMatch(u -> u.startsWith("model.cross_entropy_fusion_impl not written: Transformer"
                + " Engine's loss, Megatron-Bridge's Llama3ModelProvider8B default")), on.origin().unpriced().toString());
    }

    @Test
    void otherProvidersKeepTheNativeLossAndTheDeepSeekOnesSayWhy() {
        for (String p : new String[] {"llama.llama_provider.Llama31ModelProvider70B", "gpt_provider.GPTModelProvider",
                "qwen.qwen_provider.Qwen3MoEModelProvider30B_A3B", "mla_provider.MLAModelProvider"}) {
            Specs.Job j = Foreign.bind("run_config.yaml", bridge(p, ""));
            assertNull(j.model().crossEntropy(), p);
            assertEquals(LossKernel.NATIVE, LossKernel.of(j), p);
            assertFalse(j.origin().unpriced().stream().anyMatch(u -> u.contains("cross_entropy")), p + ": " + j.origin().unpriced());
        }
        Specs.Job ds = Foreign.bind("run_config.yaml", bridge("deepseek.deepseek_provider.DeepSeekV3ModelProvider", ""));
        assertNull(ds.model().crossEntropy());
        assertEquals(LossKernel.NATIVE, LossKernel.of(ds));
        assertTrue(ds.origin().unpriced().contains("model.cross_entropy_fusion_impl not written: Megatron-Bridge's DeepSeekV3ModelProvider"
                + " default changed between versions: Transformer Engine's loss at deepseek_provider.py 066adea (DeepSeekModelProvider:"
                + " fusion True, impl te), Megatron-Core's native loss at 355cef4 (MLAModelProvider's defaults); priced with the native"
                + " loss, the newer; write cross_entropy_fusion_impl to price the other"), ds.origin().unpriced().toString());
        // written, the DeepSeek provider's history does not matter
        Specs.Job dsTe = Foreign.bind("run_config.yaml", bridge("deepseek.deepseek_provider.DeepSeekV3ModelProvider",
                "  cross_entropy_loss_fusion: true\n  cross_entropy_fusion_impl: te"));
        assertEquals(LossKernel.TE, LossKernel.of(dsTe));
        assertFalse(dsTe.origin().unpriced().stream().anyMatch(u -> u.contains("cross_entropy")), dsTe.origin().unpriced().toString());
    }
}
