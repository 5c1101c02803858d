package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A Megatron switch in a launch script is argparse's store_true: "--bf16 false" and "--use-distributed-optimizer=true" make
 * the parser exit, so the switch binds nothing (neither on nor off) and SYN002 is at the word (the rule cases check the
 * finding); bare it binds on. MODEL_ARGS (YAML) keeps true/false, and a Hugging Face script's "--bf16 True" is not judged.
 */
class ScriptSwitchWordsTest {
    private static dev.gpulint.spec.Model bind(String name, String text) {
        SourceFile f = SourceFile.of(name, text);
        return Adapters.bind(List.of(new Adapters.Input(f, Readers.read(f).foreign())));
    }

    private static String launch(String switches) {
        return """
                #!/bin/bash
                torchrun --nnodes 1 --nproc_per_node 8 pretrain_gpt.py \\
                  --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --tensor-model-parallel-size 2 \\
                  %s
                """.formatted(switches);
    }

    @Test
    void aWordAfterAScriptSwitchBindsNothing() {
        var m = bind("train.sh", launch("--sequence-parallel false --use-distributed-optimizer=true --swiglu true"));
        Specs.Job j = m.jobs().get(0);
        assertNull(j.parallelism().sequenceParallel(), "not off: the parser refuses the word");
        assertNull(j.optimizer() == null ? null : j.optimizer().distributed(), "not on either");
        assertNull(j.model().gatedMlp());
        assertEquals(List.of("--sequence-parallel", "--use-distributed-optimizer", "--swiglu"),
                m.findings().stream().filter(f -> f.ruleId().equals("SYN002")).map(f -> f.identity().substring(f.identity().lastIndexOf('/') + 1)).toList());
        // bare, each binds on
        Specs.Job bare = bind("train.sh", launch("--sequence-parallel --use-distributed-optimizer --swiglu")).jobs().get(0);
        assertEquals(true, bare.parallelism().sequenceParallel().value());
        assertEquals(true, bare.optimizer().distributed().value());
        assertEquals(true, bare.model().gatedMlp().value());
    }

    @Test
    void modelArgsKeepTrueAndFalseAndAHuggingFaceScriptIsNotJudged() {
        var yaml = bind("tp2/model_config.yaml", """
                MODEL_ARGS:
                  --num-layers: 32
                  --tensor-model-parallel-size: 2
                  --sequence-parallel: false
                  --swiglu: true
                """);
        assertEquals(List.of(), yaml.findings());
        assertEquals(false, yaml.jobs().get(0).parallelism().sequenceParallel().value());
        assertEquals(true, yaml.jobs().get(0).model().gatedMlp().value());
        var hf = bind("finetune.sh", """
                #!/bin/bash
                torchrun --nproc_per_node 8 train.py --model_name_or_path ./ckpt --bf16 True --tf32 True
                """);
        assertEquals(List.of(), hf.findings().stream().filter(f -> f.ruleId().equals("SYN002")).toList());
    }

    /**
     * The word after a flag is its value only when the flag takes one: "--tensor-model-parallel-size=4 $EXTRA" keeps 4 and a bare
     * switch before "${DATA_ARGS}" stays on (a splice of the switch-word check once read the next word for both).
     */
    @Test
    void theWordAfterAnEqualsValueOrABareSwitchIsNotItsValue() {
        Specs.Job j = bind("train.sh", """
                #!/bin/bash
                torchrun --nnodes 1 --nproc_per_node 8 pretrain_gpt.py \\
                  --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --tensor-model-parallel-size=4 ${EXTRA_ARGS} \\
                  --sequence-parallel ${DATA_ARGS} --use-distributed-optimizer data/tokens
                """).jobs().get(0);
        assertEquals(4L, j.parallelism().tp().value());
        assertEquals(true, j.parallelism().sequenceParallel().value());
        assertEquals(true, j.optimizer().distributed().value());
    }
}
