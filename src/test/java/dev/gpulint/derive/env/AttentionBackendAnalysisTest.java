package dev.gpulint.derive.env;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolver;
import dev.gpulint.facts.AttentionBackendFact;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PAR018's analysis: Megatron-Core's LanguageModule._set_attention_backend (megatron/core/models/common/language_module/
 * language_module.py, NVIDIA/Megatron-LM at 00c2c0ad; not yet at 3d5f704c) takes NVTE_FLASH_ATTN, NVTE_FUSED_ATTN and NVTE_UNFUSED_ATTN only unset
 * or at the value the named backend sets (auto 1/1/1, flash 1/0/0, fused 0/1/0, unfused 0/0/1, local 0/0/0).
 */
class AttentionBackendAnalysisTest {

    /** A Megatron-LM launch script that exports {@code exports} before torchrun and passes {@code flags}. */
    private static String script(String exports, String flags) {
        return "#!/bin/bash\n" + exports + "torchrun --nproc-per-node 8 pretrain_gpt.py --num-layers 32 --hidden-size 4096"
                + " --num-attention-heads 32" + flags + "\n";
    }

    private static List<AttentionBackendFact> bound(String name, String text) {
        Specs.Job j = Foreign.bind(name, text);
        Facts out = new Facts();
        AttentionBackendAnalysis.job(new Resolver(Catalog.builtIn()).job(j), out);
        List<AttentionBackendFact> list = new ArrayList<>();
        for (Object o : out.list()) if (o instanceof AttentionBackendFact f) list.add(f);
        return list;
    }

    private static List<AttentionBackendFact> facts(String exports, String flags) {
        return bound("train.sh", script(exports, flags));
    }

    @Test
    void eachBackendTakesItsOwnValuesOrNone() {
        // every backend against every single setting: a fact exactly where Megatron-Core's table differs from the value
        String[] backends = {"auto", "flash", "fused", "unfused", "local"};
        int[][] table = {{1, 1, 1}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0}};
        for (int b = 0; b < backends.length; b++) {
            for (int v = 0; v < 3; v++) {
                String name = AttentionBackendFact.VARIABLES.get(v);
                assertEquals(table[b][v], AttentionBackendFact.expected(backends[b], name));
                for (int value = 0; value <= 1; value++) {
                    List<AttentionBackendFact> f = facts("export " + name + "=" + value + "\n", " --attention-backend " + backends[b]);
                    assertEquals(value == table[b][v] ? 0 : 1, f.size(), backends[b] + " " + name + "=" + value);
                }
            }
        }
        assertEquals(-1, AttentionBackendFact.expected("auto", "NVTE_FUSED_ATTN_CK"), "not one of Megatron-Core's three");
    }

    @Test
    void theFactNamesTheFirstVariableMegatronCoreChecksAndWhereTheBackendIsWritten() {
        AttentionBackendFact f = facts("export NVTE_UNFUSED_ATTN=0\nexport NVTE_FUSED_ATTN=0\nexport NVTE_FLASH_ATTN=0\n",
                " --attention-backend auto").get(0);
        assertEquals(3, f.getDisagreeingCount());
        assertEquals("NVTE_FLASH_ATTN", f.getName(), "Megatron-Core checks flash, fused, unfused in that order");
        assertEquals("NVTE_FLASH_ATTN=0, NVTE_FUSED_ATTN=0 and NVTE_UNFUSED_ATTN=0", f.getSettingsWords());
        assertEquals("NVTE_FLASH_ATTN set to 0, but expected 1 for attention backend type auto", f.getAssertText());
        assertEquals("train.sh:4:24", f.getSpan().toString());
        assertEquals("train.sh:5:125", f.getBackendSpan().toString());
        assertEquals("--attention-backend auto", f.getBackendSetting());
        assertNull(f.getIntended(), "all three off leave Transformer Engine no backend");
        assertTrue(f.isSameIntent());
        assertEquals(List.of(), f.getRemovals(), "three lines to remove: no one-line fix");
        assertEquals("training_job:train.sh/attention_backend", f.identity());
        // under local, Megatron-Core passes AttnBackend.flash to its assert: the message says so
        assertEquals("NVTE_FUSED_ATTN set to 1, but expected 0 for attention backend type flash",
                facts("export NVTE_FUSED_ATTN=1\n", " --attention-backend local").get(0).getAssertText());
    }

    @Test
    void theIntendedBackendIsWhatTheVariablesLeaveTransformerEngine() {
        assertEquals("auto", AttentionBackendFact.intendedBackend(true, true, false));
        assertEquals("fused", AttentionBackendFact.intendedBackend(false, true, true));
        assertEquals("flash", AttentionBackendFact.intendedBackend(true, false, true), "the Grok-1 recipe: flash before plain ops");
        assertEquals("unfused", AttentionBackendFact.intendedBackend(false, false, true));
        assertNull(AttentionBackendFact.intendedBackend(false, false, false));
        AttentionBackendFact grok = facts("export NVTE_FUSED_ATTN=0\n", " --attention-backend auto").get(0);
        assertEquals("flash", grok.getIntended());
        assertFalse(grok.isSameIntent());
        assertEquals("--attention-backend flash", grok.getIntendedSetting());
        // a "1" the backend turns off asks for nothing: the named backend stands
        AttentionBackendFact one = facts("export NVTE_UNFUSED_ATTN=1\n", " --attention-backend flash").get(0);
        assertNull(one.getIntended());
        assertTrue(one.isSameIntent());
        assertEquals(1, facts("export NVTE_FUSED_ATTN=true\n", " --attention-backend auto").size(),
                "Megatron-Core compares the string: true is not 1");
    }

    @Test
    void theValueJudgedIsTheOneTheLaunchSees() {
        // the shell's order: the later export wins, at its own line
        AttentionBackendFact later = facts("export NVTE_FUSED_ATTN=1\nexport NVTE_FUSED_ATTN=0\n", " --attention-backend auto").get(0);
        assertEquals("train.sh:3:24", later.getSpan().toString());
        assertEquals(List.of(), facts("export NVTE_FUSED_ATTN=0\nexport NVTE_FUSED_ATTN=1\n", " --attention-backend auto"),
                "exported again as 1 before the launch");
        assertEquals(List.of(), facts("export NVTE_FUSED_ATTN=0\nunset NVTE_FUSED_ATTN\n", " --attention-backend auto"), "unset");
        assertEquals(List.of(), facts("export NVTE_FUSED_ATTN=0\nNVTE_FUSED_ATTN=1 ", " --attention-backend auto"),
                "the launch's own NAME=value wins over the export");
        assertEquals(List.of(), facts("NVTE_FUSED_ATTN=0 python prep.py\n", " --attention-backend auto"),
                "NAME=value before another command is that command's only");
        assertEquals(List.of(), bound("train.sh", script("", " --attention-backend auto") + "export NVTE_FUSED_ATTN=0\n"),
                "an export after the launch");
        // a plain assignment to an exported name changes what the launch sees; 'export NAME' exports the value written before
        assertEquals("train.sh:3:17", facts("export NVTE_FUSED_ATTN=1\nNVTE_FUSED_ATTN=0\n", " --attention-backend auto").get(0)
                .getSpan().toString());
        assertEquals("0", facts("NVTE_FUSED_ATTN=0\nexport NVTE_FUSED_ATTN\n", " --attention-backend auto").get(0).getValue());
        assertEquals(List.of(), facts("NVTE_FUSED_ATTN=0\n", " --attention-backend auto"), "a shell variable, never exported");
        // srun --export sets it for the launch itself, unless the list holds ALL and the caller exports the name: then the
        // caller's value wins (srun(1) --export: "all user environment variables ... will take precedence")
        assertEquals(1, bound("job.sbatch", "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gpus-per-node=8\nNVTE_FUSED_ATTN=1\n"
                + "srun --export=ALL,NVTE_FUSED_ATTN=0 python pretrain_gpt.py --num-layers 32 --hidden-size 4096"
                + " --num-attention-heads 32 --attention-backend auto\n").size());
        assertEquals(0, bound("job.sbatch", "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gpus-per-node=8\nexport NVTE_FUSED_ATTN=1\n"
                + "srun --export=ALL,NVTE_FUSED_ATTN=0 python pretrain_gpt.py --num-layers 32 --hidden-size 4096"
                + " --num-attention-heads 32 --attention-backend auto\n").size());
    }

    @Test
    void nemo2sAttentionBackendIsKeptUnderItsOwnKey() {
        // a NeMo 2 recipe writes AttnBackend.fused in the model's config; "null" (Megatron-Bridge's legacy recipes) is none
        Specs.Job j = Foreign.bind("llama3_70b.yaml", recipe("AttnBackend.fused"));
        assertEquals("fused", j.model().attention().backend().value());
        assertEquals(12, j.model().attention().backend().span().startLine(), "at the value");
        assertEquals("model.config.attention_backend", j.origin().key(Specs.Origin.ATTENTION_BACKEND));
        Specs.Job none = Foreign.bind("llama3_70b.yaml", recipe("null"));
        assertTrue(none.model() == null || none.model().attention() == null || none.model().attention().backend() == null);
    }

    /** A NeMo 2 recipe of Llama 3 70B on 8 × 8 GPUs at tp 8 whose model config writes {@code attention_backend: backend}. */
    private static String recipe(String backend) {
        return Recipes.nemo2(128, 1, 8192).model("llama.LlamaModel", "llama.Llama3Config70B", "attention_backend: " + backend)
                .trainer(8, 8).strategy("tensor_model_parallel_size: 8").yaml();
    }

    @Test
    void quietWhereTheCheckDoesNotRunOrTheValueIsNotKnown() {
        assertEquals(List.of(), facts("export NVTE_FUSED_ATTN=0\n", ""), "no backend named: the Grok-1 recipe's stack ran");
        assertEquals(List.of(), facts("export NVTE_FUSED_ATTN=0\n", " --use-legacy-models --attention-backend auto"),
                "the legacy model builds no LanguageModule");
        assertEquals(List.of(), facts("export NVTE_FUSED_ATTN=${FUSED:-0}\n", " --attention-backend auto"),
                "a default the environment may override");
        assertEquals(List.of(), facts("export NVTE_FUSED_ATTN=\n", " --attention-backend auto"), "empty: not read");
        assertEquals(List.of(), facts("", " --attention-backend auto"));
        assertEquals(List.of(), facts("export NVTE_FLASH_ATTN=0\nexport NVTE_FUSED_ATTN=1\n", " --attention-backend fused"),
                "the DGX Cloud Llama 3.1 recipe's values, as fused sets them");
        for (Specs.Job other : Foreign.jobs("gen.sh", "#!/bin/bash\nexport NVTE_FLASH_ATTN=0\npython generate.py --num-gpus 8"
                + " --attention-backend flash\n")) {
            assertTrue(other.model() == null || other.model().attention() == null || other.model().attention().backend() == null,
                    "another program's --attention-backend is not Megatron-Core's");
        }
    }
}
