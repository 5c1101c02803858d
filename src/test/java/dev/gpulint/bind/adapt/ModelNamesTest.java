package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Specs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs that name their model instead of writing its dimensions (our own fixtures, in the shapes of a Slurm + torchrun
 * fine-tune with Hugging Face flags, a Megatron-LM script whose tokenizer is a Hugging Face folder, a torchtitan TOML,
 * a NeMo 2 recipe of a class NeMo's Llama configs do not cover, and a checkpoint folder's config.json).
 */
class ModelNamesTest {

    private static List<Specs.Job> jobs(SourceFile... files) {
        List<Adapters.Input> in = new ArrayList<>();
        for (SourceFile f : files) in.add(new Adapters.Input(f, Readers.read(f).foreign()));
        return Adapters.bind(in).jobs();
    }

    private static Specs.Job job(String name, String text) {
        return jobs(SourceFile.of(name, text)).get(0);
    }

    private static String shapeFrom(Specs.Job j) {
        for (Specs.Stated s : j.origin().stated()) if (s.quantity().equals(ModelNames.SHAPE)) return s.value() + " | " + s.where();
        return null;
    }

    static final String FINETUNE = """
            #!/bin/bash
            #SBATCH --job-name=llama3-70b-sft
            #SBATCH --nodes=4
            #SBATCH --ntasks-per-node=1
            #SBATCH --gpus-per-node=8
            export MODEL=meta-llama/Meta-Llama-3-70B-Instruct
            srun torchrun --nnodes 4 --nproc_per_node 8 train.py \\
                --model_name_or_path $MODEL \\
                --bf16 True --fsdp "full_shard auto_wrap" \\
                --per_device_train_batch_size 1 --max_seq_length 4096
            """;

    @Test
    void aHuggingFaceRepositoryOnTheLaunchGivesTheCatalogShapeAtTheName() {
        Specs.Job j = job("sft.sbatch", FINETUNE);
        Specs.Model m = j.model();
        assertEquals(80L, m.layers().value());
        assertEquals(8192L, m.hiddenSize().value());
        assertEquals(64L, m.attentionHeads().value());
        assertEquals(8L, m.kvHeads().value());
        assertEquals(28672L, m.ffnHiddenSize().value());
        assertEquals(128256L, m.vocabSize().value());
        assertEquals(true, m.gatedMlp().value());
        assertEquals(false, m.tiedEmbeddings().value());
        assertNull(m.headDim(), "128 = 8192 ÷ 64: not written");
        assertNull(m.experts());
        // placed at the model's name on line 8 (the value $MODEL expands to)
        assertEquals(8, m.layers().span().startLine());
        assertEquals("meta-llama/Meta-Llama-3-70B | --model_name_or_path meta-llama/Meta-Llama-3-70B-Instruct: the model catalog's "
                + "meta-llama/Meta-Llama-3-70B (https://huggingface.co/meta-llama/Meta-Llama-3-70B/blob/main/config.json)", shapeFrom(j));
    }

    @Test
    void aMegatronTokenizerFolderNamesTheModelAndTheWrittenDimensionsWin() {
        Specs.Job j = job("pretrain_llama2.sh", """
                #!/bin/bash
                TOKENIZER=/data/models/Llama-2-7b-hf/tokenizer.model
                torchrun --nproc_per_node 8 pretrain_gpt.py \\
                    --tensor-model-parallel-size 2 --pipeline-model-parallel-size 1 \\
                    --num-layers 16 --seq-length 4096 \\
                    --tokenizer-type Llama2Tokenizer --tokenizer-model ${TOKENIZER} \\
                    --micro-batch-size 1 --global-batch-size 64 --bf16
                """);
        Specs.Model m = j.model();
        assertEquals(16L, m.layers().value(), "--num-layers is written: it wins over the catalog's 32");
        assertEquals(4096L, m.hiddenSize().value());
        assertEquals(32L, m.attentionHeads().value());
        assertEquals(11008L, m.ffnHiddenSize().value());
        assertEquals(32000L, m.vocabSize().value());
        assertTrue(shapeFrom(j).startsWith("meta-llama/Llama-2-7b-hf | --tokenizer-model /data/models/Llama-2-7b-hf/tokenizer.model"), shapeFrom(j));
    }

    @Test
    void aTorchtitanFlavorIsTheCatalogsNameAndFlavor() {
        Specs.Job j = job("llama3_8b.toml", """
                [job]
                dump_folder = "./outputs"

                [model]
                name = "llama3"
                flavor = "8B"
                hf_assets_path = "./assets/hf/Llama-3.1-8B"

                [training]
                local_batch_size = 1
                seq_len = 8192

                [parallelism]
                data_parallel_shard_degree = -1
                tensor_parallel_degree = 1
                """);
        Specs.Model m = j.model();
        assertEquals(32L, m.layers().value());
        assertEquals(4096L, m.hiddenSize().value());
        assertEquals(8L, m.kvHeads().value());
        assertEquals(8192L, m.seqLength().value(), "the job's sequence, never the config's 8192 maximum");
        assertEquals(6, m.layers().span().startLine(), "placed at the flavor");
        assertTrue(shapeFrom(j).startsWith("meta-llama/Meta-Llama-3-8B | [model] name and flavor llama3:8B"), shapeFrom(j));
    }

    @Test
    void aNemo2ClassNemoConfigsDoesNotHoldIsLookedUpInTheCatalog() {
        Specs.Job j = job("qwen25_72b.yaml", """
                _partial_: true
                _target_: nemo.collections.llm.api.pretrain
                model:
                  _target_: nemo.collections.llm.gpt.model.qwen2.Qwen2Model
                  config:
                    _target_: nemo.collections.llm.gpt.model.qwen2.Qwen25Config72B
                trainer:
                  _target_: nemo.lightning.pytorch.trainer.Trainer
                  devices: 8
                  num_nodes: 4
                  strategy:
                    _target_: nemo.lightning.pytorch.strategies.megatron_strategy.MegatronStrategy
                    tensor_model_parallel_size: 8
                    pipeline_model_parallel_size: 4
                """);
        Specs.Model m = j.model();
        assertEquals(80L, m.layers().value());
        assertEquals(29568L, m.ffnHiddenSize().value());
        assertEquals(152064L, m.vocabSize().value());
        assertEquals("Qwen/Qwen2.5-72B", shapeFrom(j).split(" \\| ")[0]);
    }

    @Test
    void anMoeEntryGivesItsExpertsTopKAndExpertSizeAndSaysWhatTheEstimateLeavesOut() {
        Specs.Job j = job("dsv3.sh", """
                torchrun --nnodes 32 --nproc_per_node 8 train.py --model deepseek-ai/DeepSeek-V3 --tensor-model-parallel-size 1
                """);
        Specs.Model m = j.model();
        assertEquals(61L, m.layers().value());
        assertEquals(256L, m.experts().value());
        assertEquals(8L, m.topK().value());
        assertEquals(18432L, m.ffnHiddenSize().value(), "the first three layers' dense MLP");
        assertEquals(2048L, m.moe().expertFfn().value(), "one routed expert's MLP");
        assertEquals(2048L, m.moe().sharedFfn().value(), "one shared expert of the routed experts' size");
        assertEquals(3L, m.moe().denseLayers().value());
        assertNull(m.moe().layerFreq());
        assertFalse(shapeFrom(j).contains("not modelled"), "shared experts, dense layers and MLA are the estimate's now: " + shapeFrom(j));
        assertEquals(512L, m.attention().kvLoraRank().value(), "multi-latent attention, priced from the catalog's sizes");
        assertEquals(1536L, m.attention().qLoraRank().value());
        assertEquals(128L, m.attention().qkHeadDim().value());
        assertEquals(64L, m.attention().qkRopeHeadDim().value());
        assertEquals(128L, m.attention().vHeadDim().value());
    }

    @Test
    void attentionVariantsComeFromTheCatalogAndFromAConfigJson() {
        Specs.Model oss = job("oss.sh", """
                torchrun --nnodes 4 --nproc_per_node 8 train.py --model openai/gpt-oss-120b --tensor-model-parallel-size 1
                """).model();
        assertEquals(128L, oss.attention().window().value());
        assertEquals(2L, oss.attention().fullEvery().value());
        assertEquals(true, oss.attention().sinks().value());
        assertNull(oss.attention().kvLoraRank());
        // the experts' clamped GLU and biases (ExpertPasses): swiglu_limit and GPT-OSS's biased expert projections
        assertEquals(7.0, oss.moe().activationClamp().value());
        assertEquals(true, oss.moe().expertBias().value());
        assertNull(job("mixtral.sh", """
                torchrun --nnodes 4 --nproc_per_node 8 train.py --model mistralai/Mixtral-8x7B-v0.1 --tensor-model-parallel-size 1
                """).model().attention(), "Mixtral's config has no sliding window");
        // a Qwen-style config writes a window it does not use; a GPT-OSS-style one alternates by layer_types
        SourceFile runA = SourceFile.of("train/a.sh", "accelerate launch --num_processes 8 sft.py --model_name_or_path ./ckpt/a\n");
        SourceFile runB = SourceFile.of("train/b.sh", "accelerate launch --num_processes 8 sft.py --model_name_or_path ./ckpt/b\n");
        SourceFile a = SourceFile.of("train/ckpt/a/config.json", """
                {"architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe", "hidden_size": 2048, "num_hidden_layers": 48,
                 "num_attention_heads": 32, "num_key_value_heads": 4, "num_experts": 128, "num_experts_per_tok": 8,
                 "moe_intermediate_size": 768, "intermediate_size": 6144, "vocab_size": 151936, "sliding_window": 32768,
                 "use_sliding_window": false}
                """);
        SourceFile b = SourceFile.of("train/ckpt/b/config.json", """
                {"architectures": ["GptOssForCausalLM"], "model_type": "gpt_oss", "hidden_size": 2880, "num_hidden_layers": 4,
                 "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 64, "num_local_experts": 32, "experts_per_token": 4,
                 "intermediate_size": 2880, "vocab_size": 201088, "sliding_window": 128, "swiglu_limit": 7.0,
                 "layer_types": ["sliding_attention", "full_attention", "sliding_attention", "full_attention"]}
                """);
        List<Specs.Job> both = jobs(runA, runB, a, b);
        Specs.Model qwen = both.stream().filter(x -> x.model().layers().value() == 48).findFirst().orElseThrow().model();
        Specs.Model gpt = both.stream().filter(x -> x.model().layers().value() == 4).findFirst().orElseThrow().model();
        assertNull(qwen.attention(), "use_sliding_window: false");
        assertEquals(768L, qwen.moe().expertFfn().value());
        assertEquals(128L, gpt.attention().window().value());
        assertEquals(2L, gpt.attention().fullEvery().value());
        assertEquals(true, gpt.attention().sinks().value());
        assertEquals(7.0, gpt.moe().activationClamp().value(), "swiglu_limit");
        assertEquals(true, gpt.moe().expertBias().value(), "gpt_oss experts carry biases");
        assertNull(qwen.moe().activationClamp(), "no swiglu_limit: not clamped");
        assertNull(qwen.moe().expertBias());
    }

    @Test
    void aDeepSeekStyleConfigJsonGivesMultiLatentAttentionsSizes() {
        SourceFile run = SourceFile.of("train/c.sh", "accelerate launch --num_processes 8 sft.py --model_name_or_path ./ckpt/c\n");
        SourceFile c = SourceFile.of("train/ckpt/c/config.json", """
                {"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3", "hidden_size": 2048, "num_hidden_layers": 4,
                 "num_attention_heads": 16, "num_key_value_heads": 16, "n_routed_experts": 64, "num_experts_per_tok": 6,
                 "moe_intermediate_size": 1408, "intermediate_size": 10944, "vocab_size": 102400, "q_lora_rank": 768,
                 "kv_lora_rank": 256, "qk_nope_head_dim": 96, "qk_rope_head_dim": 32, "v_head_dim": 80}
                """);
        Specs.Attention a = jobs(run, c).get(0).model().attention();
        assertEquals(256L, a.kvLoraRank().value());
        assertEquals(768L, a.qLoraRank().value());
        assertEquals(96L, a.qkHeadDim().value(), "qk_nope_head_dim");
        assertEquals(32L, a.qkRopeHeadDim().value());
        assertEquals(80L, a.vHeadDim().value());
    }

    @Test
    void aLintedConfigJsonInTheNamedFolderWinsOverTheCatalog() {
        SourceFile script = SourceFile.of("train/run.sh", """
                accelerate launch --num_processes 8 sft.py --model_name_or_path ./ckpt/Meta-Llama-3-8B
                """);
        SourceFile config = SourceFile.of("train/ckpt/Meta-Llama-3-8B/config.json", """
                {
                  "architectures": ["LlamaForCausalLM"],
                  "hidden_size": 3072,
                  "intermediate_size": 8192,
                  "model_type": "llama",
                  "num_attention_heads": 24,
                  "num_hidden_layers": 28,
                  "num_key_value_heads": 8,
                  "tie_word_embeddings": true,
                  "vocab_size": 128256
                }
                """);
        Specs.Job j = jobs(script, config).get(0);
        assertEquals(28L, j.model().layers().value(), "the folder's own config (a pruned model), not the catalog's 32");
        assertEquals(3072L, j.model().hiddenSize().value());
        assertEquals(true, j.model().tiedEmbeddings().value());
        assertEquals("train/ckpt/Meta-Llama-3-8B/config.json | --model_name_or_path ./ckpt/Meta-Llama-3-8B: the Hugging Face "
                + "configuration train/ckpt/Meta-Llama-3-8B/config.json", shapeFrom(j));
    }

    @Test
    void aConfigJsonBesideTheScriptOnDiskIsRead(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("my-model"));
        Files.writeString(dir.resolve("my-model/config.json"), """
                {"model_type": "gemma3", "architectures": ["Gemma3ForConditionalGeneration"],
                 "text_config": {"hidden_size": 2560, "num_hidden_layers": 34, "num_attention_heads": 8, "num_key_value_heads": 4,
                                 "head_dim": 256, "intermediate_size": 10240, "vocab_size": 262208, "model_type": "gemma3_text"}}
                """);
        String text = "torchrun --nproc_per_node 8 train.py --model_name_or_path my-model\n";
        Path script = Files.writeString(dir.resolve("run.sh"), text);
        Specs.Job j = jobs(new SourceFile(script, "run.sh", text)).get(0);
        assertEquals(34L, j.model().layers().value());
        assertEquals(256L, j.model().headDim().value(), "2560 ÷ 8 = 320: the config's 256 is written");
        assertEquals(true, j.model().gatedMlp().value(), "gemma3: GeGLU");
        assertTrue(shapeFrom(j).endsWith("the Hugging Face configuration my-model/config.json"), shapeFrom(j));
    }

    @Test
    void aTorchtuneRecipeConfigInAKubernetesJobNamesItsModel() {
        Specs.Job j = job("tune.yaml", """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata:
                  name: torchtune-llama3-2-3b
                spec:
                  pytorchReplicaSpecs:
                    Master:
                      replicas: 1
                      template:
                        spec:
                          containers:
                            - name: pytorch
                              image: ghcr.io/kubeflow/trainer/torchtune-trainer
                              command: [tune, run, --nproc_per_node, "8", full_finetune_distributed, --config, llama3_2/3B_full]
                              resources:
                                limits:
                                  nvidia.com/gpu: 8
                """);
        assertEquals(28L, j.model().layers().value());
        assertEquals(3072L, j.model().hiddenSize().value());
        assertEquals(true, j.model().tiedEmbeddings().value());
        assertTrue(shapeFrom(j).startsWith("meta-llama/Llama-3.2-3B | --config llama3_2_3B_full"), shapeFrom(j));
    }

    /** SkyPilot's Llama 4 fine-tune shape: tune run ... --config llama4/maverick_17B_128E_full (a name before the size). */
    @Test
    void aTorchtuneConfigNamedBeforeItsSizeNamesItsModelAndOneWithoutASizeNamesNone() {
        Specs.Job j = job("maverick-sft.yaml", """
                name: maverick-sft
                resources:
                  accelerators: H200:8
                num_nodes: 4
                run: |
                  tune run --nnodes $SKYPILOT_NUM_NODES --nproc_per_node $SKYPILOT_NUM_GPUS_PER_NODE full_finetune_distributed \\
                    --config llama4/maverick_17B_128E_full model_dir=/tmp/Llama-4-Maverick-17B-128E-Instruct
                """);
        assertEquals(48L, j.model().layers().value());
        assertEquals(128L, j.model().experts().value());
        assertTrue(shapeFrom(j).startsWith("meta-llama/Llama-4-Maverick-17B-128E | --config llama4_maverick_17B_128E_full"), shapeFrom(j));
        Specs.Job custom = job("custom-sft.yaml", """
                name: custom-sft
                resources:
                  accelerators: H200:8
                num_nodes: 4
                run: |
                  tune run --nnodes 4 --nproc_per_node 8 full_finetune_distributed --config ./my_recipe/train.yaml
                """);
        assertNull(custom.model(), "a config file of one's own names no model");
    }

    @Test
    void aServingEnginesModelIsNotPricedAsATrainingJob() {
        Specs.Job j = job("serve.sbatch", """
                #!/bin/bash
                #SBATCH --nodes=2
                #SBATCH --gpus-per-node=8
                srun python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-R1 --tp 16 --trust-remote-code
                """);
        assertEquals(16L, j.parallelism().tp().value());
        assertNull(j.model(), "sglang serves the model: no training shape");
        assertNull(shapeFrom(j));
    }

    @Test
    void aModelTheCatalogDoesNotKnowOrAJobThatWritesItsShapeStaysAsWritten() {
        Specs.Job unknown = job("opt.sh", "torchrun --nproc_per_node 8 run_clm.py --model_name_or_path facebook/opt-1.3b\n");
        assertNull(unknown.model());
        assertNull(shapeFrom(unknown));
        Specs.Job written = job("gpt.sh", """
                torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 24 --hidden-size 2048 --num-attention-heads 16 \\
                    --tokenizer-model /data/Llama-2-7b-hf/tokenizer.model
                """);
        assertEquals(2048L, written.model().hiddenSize().value());
        // Megatron pads the tokenizer's own vocabulary (build_tokenizer → _vocab_size_with_padding(tokenizer.vocab_size)):
        // the named tokenizer's 32,000 is the job's, placed at the name; nothing else comes from it
        assertEquals(32000L, written.model().vocabSize().value());
        assertEquals(2, written.model().vocabSize().span().startLine());
        assertNull(written.model().kvHeads(), "a job that writes its shape takes no other dimension from a name");
        assertNull(written.model().ffnHiddenSize());
        assertNull(shapeFrom(written));
    }


    static final String NEMO_LAUNCHER = """
            run:
              name: llama3_405b_pretrain
            trainer:
              num_nodes: 64
              devices: 8
              precision: bf16
            model:
              mcore_gpt: true
              micro_batch_size: 1
              global_batch_size: 512
              tensor_model_parallel_size: 8
              pipeline_model_parallel_size: 8
              encoder_seq_length: 8192
              num_layers: 126
              hidden_size: 16384
              ffn_hidden_size: 53248
              num_attention_heads: 128
              num_query_groups: 8
              make_vocab_size_divisible_by: 128
              tokenizer:
                library: %s
                type: %s
                use_fast: true
            """;

    @Test
    void aNemoHuggingFaceTokenizerGivesAWrittenShapeItsVocabularyOnly() {
        Specs.Job j = job("llama3_405b.yaml", NEMO_LAUNCHER.formatted("huggingface", "meta-llama/Meta-Llama-3.1-8B"));
        Specs.Model m = j.model();
        // the tokenizer's vocabulary (Llama 3.1's 128,256), placed at the tokenizer's type on line 22
        assertEquals(128256L, m.vocabSize().value());
        assertEquals(22, m.vocabSize().span().startLine());
        // the written shape stands: the 8B tokenizer lends it no dimension
        assertEquals(126L, m.layers().value());
        assertEquals(16384L, m.hiddenSize().value());
        assertNull(shapeFrom(j));
        assertEquals("tokenizer.type meta-llama/Meta-Llama-3.1-8B → the model catalog's meta-llama/Llama-3.1-8B"
                + " (https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json)", j.statedWhere(ModelNames.VOCAB));
    }

    @Test
    void aNemoTokenizerOfAnotherLibraryOrUnknownNameGivesNoVocabulary() {
        assertNull(job("a.yaml", NEMO_LAUNCHER.formatted("sentencepiece", "null")).model().vocabSize());
        assertNull(job("b.yaml", NEMO_LAUNCHER.formatted("megatron", "GPT2BPETokenizer")).model().vocabSize());
        assertNull(job("c.yaml", NEMO_LAUNCHER.formatted("huggingface", "acme/NoSuchModel-9B")).model().vocabSize());
    }

    @Test
    void aNemoTokenizerGivesNoShapeToAJobThatWritesNone() {
        String noShape = NEMO_LAUNCHER.formatted("huggingface", "meta-llama/Meta-Llama-3.1-8B")
                .replaceAll("(?m)^  (num_layers|hidden_size|ffn_hidden_size|num_attention_heads|num_query_groups): \\d+\\n", "");
        Specs.Model m = job("d.yaml", noShape).model();
        assertTrue(m == null || m.layers() == null, "an 8B tokenizer is no 405B model's shape");
    }
}
