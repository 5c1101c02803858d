package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.catalog.Models;
import dev.gpulint.testing.PlanCli;
import dev.gpulint.testing.Recipes;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The models NVIDIA's and the frameworks' published performance tables name that the catalog gained (docs/catalog.md,
 * "Models of the published performance tables"): a job naming one the way its format does (a Megatron-Bridge provider
 * class, a launch's Hugging Face repository) is planned from the catalog entry, and the plan counts the parameters the
 * model card publishes. Each job runs tp = pp = ep = 1, so the plan's one stage holds the whole model.
 */
class PublishedModelsPlanCliTest {

    private static final Models MODELS = Models.builtIn();

    @SuppressWarnings("unchecked")
    private static double stageParameters(PlanCli.Run r) {
        Map<String, Object> doc = r.json();
        Map<String, Object> stage = (Map<String, Object>) ((List<Object>) PlanCli.map(PlanCli.map(doc.get("current")).get("memory"))
                .get("stages")).get(0);
        return ((Number) stage.get("parameters")).doubleValue();
    }

    @SuppressWarnings("unchecked")
    private static List<String> assumptions(PlanCli.Run r) {
        return (List<String>) r.json().get("assumptions");
    }

    /** A Megatron-Bridge override naming the provider {@code provider}, on the lab's 16 H100s. */
    private static PlanCli.Run bridge(Path dir, String provider) {
        return PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("model_override.yaml", """
                model:
                  _target_: %s
                  tensor_model_parallel_size: 1
                  pipeline_model_parallel_size: 1
                  expert_model_parallel_size: 1
                  seq_length: 4096
                train:
                  global_batch_size: 16
                  micro_batch_size: 1
                mixed_precision: bf16_mixed
                """.formatted(provider)).jobClusters("lab", "*_override.yaml").planJson();
    }

    /** A torchrun launch on the lab's 2 nodes naming its model with {@code --model}. */
    private static PlanCli.Run launch(Path dir, String model) {
        return PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("train.sh", """
                #!/bin/bash
                #SBATCH --nodes=2
                #SBATCH --gpus-per-node=8
                srun torchrun --nnodes 2 --nproc_per_node 8 train.py --model %s \\
                    --tensor-model-parallel-size 1 --micro-batch-size 1 --global-batch-size 16 --seq-length 4096 --bf16
                """.formatted(model)).jobClusters("lab", "*.sh").planJson();
    }

    /** The active parameters: the total less the routed experts a token does not use, on every MoE layer. */
    private static double active(double total, Models.Entry e) {
        long moeLayers = (e.layers() - e.firstDenseLayers()) / e.moeLayerStep();
        return total - (double) (e.experts() - e.topK()) * moeLayers * (e.gated() ? 3 : 2) * e.hidden() * e.moeFfn();
    }

    private static Models.Entry entry(String name) {
        return MODELS.entries().stream().filter(e -> e.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void glm45FromItsBridgeProviderCountsTheCardsTotalAndActiveParameters(@TempDir Path dir) {
        PlanCli.Run r = bridge(dir, "megatron.bridge.models.glm.glm45_provider.GLM45ModelProvider355B");
        assertTrue(assumptions(r).stream().anyMatch(a -> a.startsWith("model shape (what the files do not write) from model._target_ "
                + "GLM45355B: the model catalog's zai-org/GLM-4.5 (")), assumptions(r).toString());
        double total = stageParameters(r);
        // zai-org/GLM-4.5 model card: 355 B total, 32 B active; the card's total also holds the one MTP layer, which the plan
        // does not price, and its active count leaves out the embeddings (151,552 × 5,120 × 2 = 1.55 B)
        assertEquals(355e9, total, 0.01 * 355e9, "GLM-4.5's parameters");
        assertEquals(32e9, active(total, entry("zai-org/GLM-4.5")) - 2 * 151552.0 * 5120, 0.02 * 32e9, "GLM-4.5's active parameters");
    }

    @Test
    void glm45AirFromItsBridgeProvider(@TempDir Path dir) {
        double total = stageParameters(bridge(dir, "megatron.bridge.models.glm.glm45_provider.GLM45AirModelProvider106B"));
        assertEquals(106e9, total, 0.01 * 106e9, "zai-org/GLM-4.5-Air model card: 106 B total");
        assertEquals(12e9, active(total, entry("zai-org/GLM-4.5-Air")) - 2 * 151552.0 * 4096, 0.02 * 12e9, "12 B active, embeddings aside");
    }

    @Test
    void moonlightFromItsBridgeProvider(@TempDir Path dir) {
        double total = stageParameters(bridge(dir, "megatron.bridge.models.deepseek.MoonlightModelProvider16B"));
        // moonshotai/Moonlight-16B-A3B model card: 16 B total, 3 B activated (rounded to the billion)
        assertEquals(16e9, total, 0.5e9, "Moonlight's parameters");
        assertEquals(3e9, active(total, entry("moonshotai/Moonlight-16B-A3B")), 0.5e9, "Moonlight's active parameters");
    }

    @Test
    void kimiK2FromALaunchNamingItsRepository(@TempDir Path dir) {
        PlanCli.Run r = launch(dir, "moonshotai/Kimi-K2-Instruct");
        assertTrue(assumptions(r).stream().anyMatch(a -> a.contains("--model moonshotai/Kimi-K2-Instruct: the model catalog's moonshotai/Kimi-K2-Base")),
                assumptions(r).toString());
        double total = stageParameters(r);
        // model card: "1T" total parameters (to the trillion's first digit: 1.03 T counted), 32 B activated
        assertEquals(1.0e12, total, 0.05e12, "Kimi K2's parameters");
        assertEquals(32e9, active(total, entry("moonshotai/Kimi-K2-Base")), 0.03 * 32e9, "Kimi K2's active parameters");
    }

    @Test
    void grok1FromALaunchNamingItsRepository(@TempDir Path dir) {
        double total = stageParameters(launch(dir, "xai-org/grok-1"));
        assertEquals(314e9, total, 0.01 * 314e9, "xai-org/grok-1 README: 314 B parameters");
    }

    /**
     * A hybrid Mamba model is priced by its layers' kinds (derive/estimate/MambaLayers): Nemotron-H 56B from its Bridge
     * provider counts the 56 B parameters its model card states (54 Mamba-2, 10 attention and 54 MLP layers; as transformer
     * layers it would be 83 B), and the assumptions say how it was priced.
     */
    @Test
    void aNemotronHRecipeIsPricedByItsLayersKinds(@TempDir Path dir) {
        PlanCli.Run r = bridge(dir, "megatron.bridge.models.nemotronh.NemotronHModelProvider56B");
        // nvidia/Nemotron-H-56B-Base-8K model card: "This model has 56B model parameters"
        assertEquals(56e9, stageParameters(r), 0.01 * 56e9, "Nemotron-H 56B's parameters");
        assertTrue(assumptions(r).stream().anyMatch(a -> a.startsWith("hybrid Mamba layers priced by kind: 54 Mamba-2 (256 heads × 64,"
                + " state 256, 8 groups, conv 4: ") && a.contains("10 attention-only and 54 MLP-only of 118 layers, 56.3 B parameters")),
                assumptions(r).toString());
        assertTrue(assumptions(r).stream().noneMatch(a -> a.startsWith("Mamba ")), "the catalog states every size: no default taken");
    }

    /**
     * A hybrid with MoE layers among its Mamba-2 layers (Nemotron 3 Nano) is priced by kind, its E layers as MoE layers: the
     * plan's one stage holds the 31.6 B parameters the model card states (nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16: "31.6B
     * total"), the assumptions say the MoE layers' shape, and the breakdown prices 23 of 52 layers through the moe term.
     */
    @Test
    void aHybridWithMoeLayersIsPricedByKindWithItsExperts(@TempDir Path dir) {
        PlanCli.Run r = launch(dir, "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16");
        assertEquals(31.6e9, stageParameters(r), 0.01 * 31.6e9, "Nemotron 3 Nano's parameters");
        assertTrue(assumptions(r).stream().anyMatch(a -> a.startsWith("hybrid Mamba layers priced by kind: 23 Mamba-2 (64 heads × 64,"
                + " state 128, 8 groups, conv 4: ") && a.contains(", 6 attention-only, 0 MLP-only and 23 MoE (128 experts, top 6,"
                + " expert width 1856, shared experts 3712: priced as MoE layers, MoeCost) of 52 layers, 31.6 B parameters")),
                assumptions(r).toString());
        assertTrue(assumptions(r).contains("MoE layers: 23 of 52 (the hybrid layer pattern's E layers; the others 23 Mamba-2 (M) and"
                + " 6 attention-only (*))"), assumptions(r).toString());
        System.out.println(r.out());
    }

    /** testing.Recipes.smallHybrid at tp 1 and global batch 16, its vocabulary (32,768) and untied embeddings written. */
    private static Recipes.ModelArgs hybrid() {
        return Recipes.smallHybrid().set("--tensor-model-parallel-size", 1).set("--global-batch-size", 16).set("--vocab-size", 32768)
                .set("--untie-embeddings-and-output-weights", true);
    }

    /**
     * A Megatron MODEL_ARGS job writing its own hybrid (--is-hybrid-model, --hybrid-layer-pattern, no --mamba-* sizes): priced
     * by kind with Megatron-LM's defaults, each said; the plan's stage holds the parameters the mixer's formula counts.
     */
    @Test
    void aMegatronHybridScriptIsPricedByKindWithMegatronsDefaults(@TempDir Path dir) {
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("model_config.yaml", hybrid().yaml()).jobClusters("lab", "model_config.yaml").planJson();
        List<String> as = assumptions(r);
        for (String d : List.of("Mamba state size not given: 128", "Mamba head dimension not given: 64", "Mamba groups not given: 8",
                "Mamba heads not given: 32", "Mamba conv1d width not given: 4")) {
            assertTrue(as.stream().anyMatch(a -> a.startsWith(d)), d + " in " + as);
        }
        assertTrue(as.stream().noneMatch(a -> a.startsWith("--is-hybrid-model")), as.toString());
        // h 1024, d_inner 32 × 64 = 2048, G·N 8 × 128: in_proj 1024 × (4096 + 2048 + 32), out_proj 2048 × 1024, conv (2048 + 2048) × 5,
        // 3 × 32, the gated norm 2048, the layer norm 1024; attention 4 × 1024², MLP 2 × 1024 × 4096, a norm each; the final norm;
        // two embeddings of 32,768 × 1024
        double mixer = 1024.0 * 6176 + 2048.0 * 1024 + 4096.0 * 5 + 96 + 2048 + 1024;
        double total = 4 * mixer + (4 * 1024.0 * 1024 + 1024) + 3 * (2 * 1024.0 * 4096 + 1024) + 1024 + 2 * 32768.0 * 1024;
        assertEquals(total, stageParameters(r), 1);
    }

    /**
     * A Megatron MODEL_ARGS job of a hybrid with MoE layers (Nemotron 3's shape: --hybrid-layer-pattern with E, --num-experts,
     * --moe-router-topk, --moe-shared-expert-intermediate-size, squared ReLU): its E layers priced as MoE layers, the
     * stage holding the layers by kind and an ep-th of the routed experts.
     */
    @Test
    void aMegatronHybridScriptWithMoeLayersPricesThemAsMoeLayers(@TempDir Path dir) {
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("model_config.yaml", hybrid().set("--expert-model-parallel-size", 4)
                .set("--ffn-hidden-size", 512).pattern("MEM*MEME").set("--mamba-num-heads", 32).set("--mamba-head-dim", 64)
                .set("--mamba-state-dim", 128).set("--mamba-num-groups", 8).set("--num-experts", 16).set("--moe-router-topk", 2)
                .set("--moe-shared-expert-intermediate-size", 1024).set("--squared-relu", true).yaml()).jobClusters("lab", "model_config.yaml").planJson();
        List<String> as = assumptions(r);
        assertTrue(as.contains("MoE layers: 3 of 8 (the hybrid layer pattern's E layers; the others 4 Mamba-2 (M) and 1"
                + " attention-only (*))"), as.toString());
        assertTrue(as.stream().anyMatch(a -> a.contains("1 attention-only, 0 MLP-only and 3 MoE (16 experts, top 2, expert width 512,"
                + " shared experts 1024: priced as MoE layers, MoeCost) of 8 layers")), as.toString());
        // h 1024, d_inner 2048, G·N 1024: 4 mixers as the dense hybrid's test counts them; 1 attention layer (4 × 1024² and a
        // norm); 3 MoE layers' norms and routers (1024 × 17), shared experts (2 × 1024 × 1024), a quarter of their 16 routed
        // experts (2 × 1024 × 512 each, ep 4); the final norm; two embeddings of 32,768 × 1024
        double mixer = 1024.0 * 6176 + 2048.0 * 1024 + 4096.0 * 5 + 96 + 2048 + 1024;
        double total = 4 * mixer + (4 * 1024.0 * 1024 + 1024) + 3 * (1024.0 * 17 + 2 * 1024.0 * 1024 + 16 * 2 * 1024.0 * 512 / 4)
                + 1024 + 2 * 32768.0 * 1024;
        assertEquals(total, stageParameters(r), 1);
    }

    /**
     * A Megatron MODEL_ARGS hybrid of both mixers (our own 8-layer pattern "MEG*GEME": Mamba-2 M, GatedDeltaNet G, MoE E) with
     * its --mamba-* and --linear-* sizes and cp 2: each M priced as Mamba-2 and each G as a gated delta net of its own sizes,
     * the assumptions naming what each letter was priced as, cp over both mixers said; the stage holds each kind's parameters.
     */
    @Test
    void aMegatronHybridOfMambaAndGatedDeltaNetLayersPricesEachWithItsOwnSizes(@TempDir Path dir) {
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("model_config.yaml", hybrid().set("--expert-model-parallel-size", 4)
                .set("--ffn-hidden-size", 512).pattern("MEG*GEME").set("--mamba-num-heads", 32).set("--mamba-head-dim", 64)
                .set("--mamba-state-dim", 128).set("--mamba-num-groups", 8).set("--linear-num-key-heads", 8)
                .set("--linear-num-value-heads", 16).set("--linear-key-head-dim", 128).set("--linear-value-head-dim", 128)
                .set("--linear-conv-kernel-dim", 4).set("--num-experts", 16).set("--moe-router-topk", 2).set("--context-parallel-size", 2)
                .set("--squared-relu", true).yaml()).jobClusters("lab", "model_config.yaml").planJson();
        List<String> as = assumptions(r);
        assertTrue(as.contains("MoE layers: 3 of 8 (the hybrid layer pattern's E layers; the others 2 Mamba-2 (M), 2 gated delta net (G)"
                + " and 1 attention-only (*))"), as.toString());
        assertTrue(as.stream().anyMatch(a -> a.startsWith("hybrid layers priced by kind: 2 Mamba-2 (M: 32 heads × 64, state 128, 8 groups,"
                + " conv 4: ") && a.contains("2 gated delta net (G: Megatron-Core's GatedDeltaNet, 8 key heads × 128, 16 value heads × 128,"
                + " conv 4: ") && a.contains("1 attention-only, 0 MLP-only and 3 MoE (16 experts, top 2, expert width 512: priced as MoE"
                + " layers, MoeCost) of 8 layers")), as.toString());
        assertTrue(as.stream().anyMatch(a -> a.startsWith("context parallelism (cp 2) over the 2 Mamba-2 and 2 gated delta net layers:"
                + " Megatron-Core all-to-alls each one's in_proj output") && a.contains("(6 a Mamba-2 layer, 7 a gated delta net layer"
                + " forward, as many backward), exposed")), as.toString());
        assertTrue(as.stream().noneMatch(a -> a.contains("not used") || a.contains("G (gated delta net, GDN) as M")), as.toString());
        // 2 Mamba-2 mixers as the MoE hybrid's test counts them; 2 GDN layers (qk 8 × 128, v 16 × 128): in_proj 1024 × (2·1024 +
        // 2·2048 + 2·16), conv1d (2·1024 + 2048) × 4 without bias, A_log and dt_bias 2 × 16, out_norm 128, the layer norm 1024,
        // out_proj 2048 × 1024; 1 attention layer; 3 MoE layers' norms and routers and a quarter of their 16 routed experts
        // (ep 4); the final norm; two embeddings of 32,768 × 1024
        double mixer = 1024.0 * 6176 + 2048.0 * 1024 + 4096.0 * 5 + 96 + 2048 + 1024;
        double gdn = 1024.0 * (2 * 1024 + 2 * 2048 + 2 * 16) + (2 * 1024 + 2048) * 4.0 + 2 * 16 + 128 + 1024 + 2048.0 * 1024;
        double total = 2 * mixer + 2 * gdn + (4 * 1024.0 * 1024 + 1024) + 3 * (1024.0 * 17 + 16 * 2 * 1024.0 * 512 / 4)
                + 1024 + 2 * 32768.0 * 1024;
        assertEquals(total, stageParameters(r), 1);
    }

    /**
     * A linted NemotronH config.json with its Mamba-2 sizes gives its shape and its layer kinds (priced by kind); the keys as
     * nvidia/Nemotron-H-8B-Base-8K's config.json writes them (its MLP squared ReLU: two matrices, whatever hidden_act says).
     */
    @Test
    void aNemotronHConfigJsonGivesItsShapeAndItsKinds() {
        var config = dev.gpulint.read.SourceFile.of("ckpt/nh8/config.json", """
                {"architectures": ["NemotronHForCausalLM"], "model_type": "nemotron_h", "hidden_size": 4096, "num_hidden_layers": 52,
                 "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 21504, "vocab_size": 131072,
                 "hidden_act": "silu", "mlp_hidden_act": "relu2", "tie_word_embeddings": false,
                 "hybrid_override_pattern": "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-", "mamba_num_heads": 128,
                 "mamba_head_dim": 64, "ssm_state_size": 128, "n_groups": 8, "conv_kernel": 4}
                """);
        var script = dev.gpulint.read.SourceFile.of("train.sh", """
                torchrun --nproc_per_node 8 train.py --model_name_or_path ckpt/nh8 --bf16
                """);
        dev.gpulint.spec.Specs.Job j = dev.gpulint.bind.adapt.Adapters.bind(List.of(
                new dev.gpulint.bind.adapt.Adapters.Input(config, dev.gpulint.read.Readers.read(config).foreign()),
                new dev.gpulint.bind.adapt.Adapters.Input(script, dev.gpulint.read.Readers.read(script).foreign()))).jobs().get(0);
        assertEquals(52L, j.model().layers().value());
        assertEquals(false, j.model().gatedMlp().value(), "nemotron_h: squared-ReLU MLP");
        var h = j.model().hybrid();
        assertEquals("M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-", h.pattern().value());
        assertEquals(List.of(128L, 64L, 128L, 8L, 4L), List.of(h.heads().value(), h.headDim().value(), h.state().value(),
                h.groups().value(), h.conv().value()));
        // with MoE layers among them (Nemotron 3 Nano's shape and keys: n_routed_experts, num_experts_per_tok,
        // moe_intermediate_size, moe_shared_expert_intermediate_size beside n_shared_experts 1) the config gives its experts too
        var moe = dev.gpulint.read.SourceFile.of("ckpt/nh8/config.json", config.text().replace("M-M-M-M*-M-M-M-M-M*-", "MEMEM*EMEMEM*EMEMEME")
                .replace("\"conv_kernel\": 4}", "\"conv_kernel\": 4, \"n_routed_experts\": 128, \"num_experts_per_tok\": 6,"
                        + " \"moe_intermediate_size\": 1856, \"moe_shared_expert_intermediate_size\": 3712, \"n_shared_experts\": 1}"));
        dev.gpulint.spec.Specs.Job k = dev.gpulint.bind.adapt.Adapters.bind(List.of(
                new dev.gpulint.bind.adapt.Adapters.Input(moe, dev.gpulint.read.Readers.read(moe).foreign()),
                new dev.gpulint.bind.adapt.Adapters.Input(script, dev.gpulint.read.Readers.read(script).foreign()))).jobs().get(0);
        assertEquals("MEMEM*EMEMEM*EMEMEMEM-MEMEM*EMEMEM*EMEMEMEM-M-M-M-M-", k.model().hybrid().pattern().value());
        assertEquals(List.of(128L, 6L, 1856L, 3712L), List.of(k.model().experts().value(), k.model().topK().value(),
                k.model().moe().expertFfn().value(), k.model().moe().sharedFfn().value()));
        // review8: a head count of 15 digits (what the reader takes) was priced as a 10^15-head mixer; past the bound
        // the config gives no shape, as without its sizes
        var huge = dev.gpulint.read.SourceFile.of("ckpt/nh8/config.json", config.text().replace("\"mamba_num_heads\": 128",
                "\"mamba_num_heads\": 999999999999999"));
        dev.gpulint.spec.Specs.Job u = dev.gpulint.bind.adapt.Adapters.bind(List.of(
                new dev.gpulint.bind.adapt.Adapters.Input(huge, dev.gpulint.read.Readers.read(huge).foreign()),
                new dev.gpulint.bind.adapt.Adapters.Input(script, dev.gpulint.read.Readers.read(script).foreign()))).jobs().get(0);
        assertTrue(u.model() == null || u.model().hybrid() == null, "no hybrid from a config whose Mamba size is past the bound");
    }

    /** A linted NemotronH config.json without its Mamba-2 sizes gives no shape: its 52 layers are not transformer layers. */
    @Test
    void aHybridConfigJsonGivesNoShape() {
        var config = dev.gpulint.read.SourceFile.of("ckpt/my-hybrid/config.json", """
                {"architectures": ["NemotronHForCausalLM"], "model_type": "nemotron_h", "hidden_size": 4096, "num_hidden_layers": 52,
                 "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 21504, "vocab_size": 131072,
                 "hybrid_override_pattern": "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-", "mamba_num_heads": 128}
                """);
        var script = dev.gpulint.read.SourceFile.of("train.sh", """
                torchrun --nproc_per_node 8 train.py --model_name_or_path ckpt/my-hybrid --bf16
                """);
        List<dev.gpulint.bind.adapt.Adapters.Input> in = List.of(
                new dev.gpulint.bind.adapt.Adapters.Input(config, dev.gpulint.read.Readers.read(config).foreign()),
                new dev.gpulint.bind.adapt.Adapters.Input(script, dev.gpulint.read.Readers.read(script).foreign()));
        dev.gpulint.spec.Specs.Job j = dev.gpulint.bind.adapt.Adapters.bind(in).jobs().get(0);
        assertTrue(j.model() == null || j.model().layers() == null, "no transformer shape from a hybrid config");
        assertEquals(null, j.statedWhere("model_shape"));
        // the same config without its pattern is a transformer's: its shape is taken
        var plain = dev.gpulint.read.SourceFile.of("ckpt/my-hybrid/config.json", config.text().replaceAll(",\\s*\"hybrid_override_pattern\"[^,]*", ""));
        assertEquals(52L, dev.gpulint.bind.adapt.Adapters.bind(List.of(
                new dev.gpulint.bind.adapt.Adapters.Input(plain, dev.gpulint.read.Readers.read(plain).foreign()),
                new dev.gpulint.bind.adapt.Adapters.Input(script, dev.gpulint.read.Readers.read(script).foreign()))).jobs().get(0).model().layers().value());
        // a Qwen3-Next style config (layer_types with linear attention) likewise
        var next = dev.gpulint.read.SourceFile.of("ckpt/next/config.json", """
                {"architectures": ["Qwen3NextForCausalLM"], "model_type": "qwen3_next", "hidden_size": 2048, "num_hidden_layers": 4,
                 "num_attention_heads": 16, "num_key_value_heads": 2, "intermediate_size": 5120, "vocab_size": 151936,
                 "layer_types": ["linear_attention", "linear_attention", "linear_attention", "full_attention"]}
                """);
        var script2 = dev.gpulint.read.SourceFile.of("train2.sh", """
                torchrun --nproc_per_node 8 train.py --model_name_or_path ckpt/next --bf16
                """);
        dev.gpulint.spec.Specs.Job k = dev.gpulint.bind.adapt.Adapters.bind(List.of(
                new dev.gpulint.bind.adapt.Adapters.Input(next, dev.gpulint.read.Readers.read(next).foreign()),
                new dev.gpulint.bind.adapt.Adapters.Input(script2, dev.gpulint.read.Readers.read(script2).foreign()))).jobs().get(0);
        assertTrue(k.model() == null || k.model().layers() == null, "no transformer shape from a linear-attention hybrid config");
    }

    private static PlanCli.Run bridge0(Path dir, String provider) {
        return PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("model_override.yaml", """
                model:
                  _target_: %s
                  tensor_model_parallel_size: 1
                  pipeline_model_parallel_size: 1
                train:
                  global_batch_size: 16
                  micro_batch_size: 1
                """.formatted(provider)).jobClusters("lab", "*_override.yaml").plan();
    }
}
