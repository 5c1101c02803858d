package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Megatron's hybrid Mamba models written by their sizes ({@code --is-hybrid-model}, {@code --hybrid-layer-pattern}): priced
 * as transformer layers, and the plan's assumptions say so, as the model catalog's hybrid entries give no shape at all.
 * Our own fixtures, in the shapes of Megatron-LM's functional-test MODEL_ARGS and a launch script.
 */
class HybridLayersTest {

    private static final String MODEL_ARGS = """
            MODEL_ARGS:
              --tensor-model-parallel-size: 2
              --micro-batch-size: 1
              --global-batch-size: 64
              --is-hybrid-model: true
              --num-layers: 8
              --hidden-size: 1024
              --ffn-hidden-size: 4096
              --num-attention-heads: 16
              --hybrid-layer-pattern: "M-M*M-M-"
              --seq-length: 4096
              --bf16: true
            """;

    private static List<String> hybridLines(Specs.Job j) {
        return j.origin().unpriced().stream().filter(s -> s.startsWith("--is-hybrid-model")).toList();
    }

    @Test
    void modelArgsPatternIsSaidWithItsKinds() {
        Specs.Job j = Foreign.bind("model_config.yaml", MODEL_ARGS);
        assertEquals(List.of("--is-hybrid-model with --hybrid-layer-pattern (4 Mamba-2, 1 attention and 3 MLP layers): the"
                + " estimate prices transformer layers only, so every layer of --num-layers is priced as attention + MLP (MoE"
                + " where the job states experts), its Mamba-2 layers included: time and memory are overstated for them (the"
                + " model catalog's hybrid entries and a hybrid config.json give no shape for this reason)"), hybridLines(j));
        assertEquals(8, j.model().layers().value());
    }

    @Test
    void pipeAndMtpSeparatorsAreNotLayersAndAnOddPatternIsNotCounted() {
        // the MTP blocks after the first '/' (Nemotron 3 Super's "...EME/*E/*E" with --mtp-num-layers 2) are not decoder layers
        Specs.Job piped = Foreign.bind("model_config.yaml", MODEL_ARGS.replace("\"M-M*M-M-\"", "\"M-M*|M-M-/*-\""));
        assertTrue(hybridLines(piped).get(0).startsWith("--is-hybrid-model with --hybrid-layer-pattern (4 Mamba-2, 1 attention"
                + " and 3 MLP layers)"), hybridLines(piped).get(0));
        Specs.Job odd = Foreign.bind("model_config.yaml", MODEL_ARGS.replace("\"M-M*M-M-\"", "\"MxM\""));
        assertTrue(hybridLines(odd).get(0).startsWith("--is-hybrid-model: the estimate prices"), hybridLines(odd).get(0));
        // without the switch nothing is said
        Specs.Job plain = Foreign.bind("model_config.yaml", MODEL_ARGS.replace("  --is-hybrid-model: true\n", ""));
        assertEquals(List.of(), hybridLines(plain));
    }

    @Test
    void launchScriptsSwitchIsReadWithTheOlderPatternName() {
        Specs.Job j = Foreign.bind("train.sh", """
                #!/bin/bash
                torchrun --nnodes 1 --nproc_per_node 8 pretrain_mamba.py \\
                  --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --seq-length 4096 \\
                  --is-hybrid-model --hybrid-override-pattern "MM*-" \\
                  --micro-batch-size 1 --global-batch-size 64 --bf16
                """);
        assertNotNull(j.origin());
        assertEquals(List.of("--is-hybrid-model with --hybrid-override-pattern (2 Mamba-2, 1 attention and 1 MLP layers): the"
                + " estimate prices transformer layers only, so every layer of --num-layers is priced as attention + MLP (MoE"
                + " where the job states experts), its Mamba-2 layers included: time and memory are overstated for them (the"
                + " model catalog's hybrid entries and a hybrid config.json give no shape for this reason)"), hybridLines(j));
    }

    @Test
    void thePatternComesUnquotedFromTheShellsWordsAndYamlsScalars() {
        // the readers take the quotes off, as sh and YAML do: a pattern is read alike however it is quoted
        String script = """
                #!/bin/bash
                torchrun --nnodes 1 --nproc_per_node 8 pretrain_mamba.py \\
                  --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --seq-length 4096 \\
                  --is-hybrid-model --hybrid-layer-pattern %s \\
                  --micro-batch-size 1 --global-batch-size 64 --bf16
                """;
        String kinds = "--is-hybrid-model with --hybrid-layer-pattern (2 Mamba-2, 1 attention and 1 MLP layers):";
        for (String written : List.of("\"MM*-\"", "'MM*-'", "MM\"*-\"", "MM'*'-")) {
            Specs.Job j = Foreign.bind("train.sh", script.formatted(written));
            assertTrue(hybridLines(j).get(0).startsWith(kinds), written + ": " + hybridLines(j));
        }
        String modelArgsKinds = "--is-hybrid-model with --hybrid-layer-pattern (4 Mamba-2, 1 attention and 3 MLP layers):";
        for (String written : List.of("\"M-M*M-M-\"", "'M-M*M-M-'", "M-M*M-M-")) {
            Specs.Job j = Foreign.bind("model_config.yaml", MODEL_ARGS.replace("\"M-M*M-M-\"", written));
            assertTrue(hybridLines(j).get(0).startsWith(modelArgsKinds), written + ": " + hybridLines(j));
        }
    }
}
