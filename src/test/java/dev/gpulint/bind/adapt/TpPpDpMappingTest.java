package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.PlanCli;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Megatron-LM's {@code --use-tp-pp-dp-mapping} and Megatron-Bridge's {@code dist.use_tp_pp_dp_mapping} bind the job's rank
 * order tp-cp-ep-pp-dp (initialize_distributed's order), refused as SYN002 at the switch where Megatron-Core's
 * initialize_model_parallel asserts (pp &gt; 1 with expert tp × ep ≠ tp × cp). Our own fixtures, in the shapes of
 * Megatron-LM's example scripts and Megatron-Bridge's run configs.
 */
class TpPpDpMappingTest {

    private static final List<ParallelDim> MAPPED = List.of(ParallelDim.TP, ParallelDim.CP, ParallelDim.EP, ParallelDim.PP, ParallelDim.DP);

    private static String script(String sizes, String mapping) {
        return """
                #!/bin/bash
                torchrun --nnodes 2 --nproc_per_node 8 pretrain_gpt.py \\
                  --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --seq-length 8192 \\
                  %s \\
                  --micro-batch-size 1 --global-batch-size 64 --bf16%s
                """.formatted(sizes, mapping);
    }

    @Test
    void theSwitchBindsMegatronsOrderAtItsWord() {
        var m = Foreign.model("train.sh", script("--tensor-model-parallel-size 2 --pipeline-model-parallel-size 2", " \\\n  --use-tp-pp-dp-mapping"));
        Specs.Job j = m.jobs().get(0);
        assertEquals(MAPPED, j.parallelism().order().value());
        assertEquals(6, j.parallelism().order().span().startLine());
        assertEquals(List.of(), Foreign.syn002(m));
        // without it: no order stated, the default
        assertNull(Foreign.bind("train.sh", script("--tensor-model-parallel-size 2 --pipeline-model-parallel-size 2", ""))
                .parallelism().order());
        // cp > 1 at pp 1: Megatron takes it (the order differs from the default only in where pp of 1 sits)
        assertEquals(MAPPED, Foreign.bind("train.sh", script("--tensor-model-parallel-size 2 --context-parallel-size 2", " \\\n  --use-tp-pp-dp-mapping"))
                .parallelism().order().value());
    }

    @Test
    void denseCpWithPipelineStagesIsRefusedWhereMegatronAsserts() {
        var m = Foreign.model("train.sh", script("--tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --context-parallel-size 2",
                " \\\n  --use-tp-pp-dp-mapping"));
        assertNull(m.jobs().get(0).parallelism().order());
        assertEquals(List.of("6:3 '--use-tp-pp-dp-mapping' is 'true'; expected off with pp 2, or expert tp × ep (2 × 1) equal to tp × cp"
                + " (2 × 2): Megatron-Core's initialize_model_parallel asserts 'When not using pp-last rank ordering, the data parallel"
                + " size of the attention and moe layers must be the same' (megatron/core/parallel_state.py), and the order"
                + " tp-cp-ep-pp-dp gives the attention layers GPUs ÷ (tp·cp·pp) data-parallel ranks and the expert layers GPUs ÷"
                + " (etp·ep·pp), so the job stops at start-up; to keep the switch set cp to 1 or pp to 1, or drop it; the value is"
                + " left out, so the estimate keeps the default rank order tp-cp-ep-dp-pp."), Foreign.syn002(m));
    }

    @Test
    void anMoeGridWhoseExpertRanksMatchIsTaken() {
        // tp 1, cp 2, ep 2, expert tp 1, pp 2: etp × ep = tp × cp = 2, the attention and expert grids agree
        String moe = "--tensor-model-parallel-size 1 --pipeline-model-parallel-size 2 --context-parallel-size 2"
                + " --num-experts 8 --moe-router-topk 2 --expert-model-parallel-size 2 --expert-tensor-parallel-size 1";
        var m = Foreign.model("train.sh", script(moe, " \\\n  --use-tp-pp-dp-mapping"));
        assertEquals(MAPPED, m.jobs().get(0).parallelism().order().value());
        assertEquals(List.of(), Foreign.syn002(m));
        // ep 4 with the same cp: 4 ≠ 2, refused
        var off = Foreign.model("train.sh", script(moe.replace("--expert-model-parallel-size 2", "--expert-model-parallel-size 4"),
                " \\\n  --use-tp-pp-dp-mapping"));
        assertNull(off.jobs().get(0).parallelism().order());
        assertEquals(1, Foreign.syn002(off).size());
    }

    private static final String BRIDGE = """
            model:
              tensor_model_parallel_size: 2
              pipeline_model_parallel_size: 2
              context_parallel_size: %s
              seq_length: 8192
            train:
              global_batch_size: 64
              micro_batch_size: 1
            dist:
              use_tp_pp_dp_mapping: %s
            """;

    @Test
    void bridgesDistConfigBindsTheSameOrder() {
        var m = Foreign.model("run_config.yaml", BRIDGE.formatted("1", "true"));
        Specs.Job j = m.jobs().get(0);
        assertEquals(MAPPED, j.parallelism().order().value());
        assertEquals(10, j.parallelism().order().span().startLine());
        assertNull(Foreign.bind("run_config.yaml", BRIDGE.formatted("1", "false")).parallelism().order());
        // cp 2 with pp 2: refused at the value, in Bridge's key
        var refused = Foreign.model("run_config.yaml", BRIDGE.formatted("2", "true"));
        assertNull(refused.jobs().get(0).parallelism().order());
        List<String> syn = Foreign.syn002(refused);
        assertEquals(1, syn.size());
        assertEquals("10:25 'dist.use_tp_pp_dp_mapping' is 'true'; expected off with pp 2", syn.get(0).substring(0, syn.get(0).indexOf(", or expert")));
    }

    private static final String NEMO1 = """
            trainer:
              devices: 8
              num_nodes: 2
            model:
              micro_batch_size: 1
              global_batch_size: 64
              tensor_model_parallel_size: 2
              pipeline_model_parallel_size: 2
              context_parallel_size: %s
              encoder_seq_length: 8192
              num_layers: 32
              hidden_size: 4096
              num_attention_heads: 32
              use_tp_pp_dp_mapping: %s
            """;

    @Test
    void nemo1sModelSwitchBindsTheOrderItsTpPpDpRunsAs() {
        // NeMo 1 passes 'tp-pp-dp' (nlp_overrides.py's init_model_parallel); with cp and ep of 1 Megatron-Core lays the groups
        // out as tp-cp-ep-pp-dp does, so the job's order is that one, at the switch's value (line 14, column 25)
        var m = Foreign.model("megatron_gpt_config.yaml", NEMO1.formatted("1", "true"));
        Specs.Job j = m.jobs().get(0);
        assertEquals(MAPPED, j.parallelism().order().value());
        assertEquals(14, j.parallelism().order().span().startLine());
        assertEquals(25, j.parallelism().order().span().startColumn());
        assertEquals(List.of(), Foreign.syn002(m));
        assertNull(Foreign.bind("megatron_gpt_config.yaml", NEMO1.formatted("1", "false")).parallelism().order());
    }

    @Test
    void nemo1sTpPpDpWithCpOrEpIsRefusedWhereTheRankGeneratorRaises() {
        // cp 2 has no place in 'tp-pp-dp': RankGenerator raises at start-up (even at pp 1, unlike Megatron-LM's tp-cp-ep-pp-dp)
        var cp = Foreign.model("megatron_gpt_config.yaml", NEMO1.formatted("2", "true"));
        assertNull(cp.jobs().get(0).parallelism().order());
        assertEquals(List.of("14:25 'model.use_tp_pp_dp_mapping' is 'true'; expected off with cp 2, or context and expert parallel"
                + " sizes of 1: NeMo 1 passes the rank order 'tp-pp-dp' (nlp_overrides.py's init_model_parallel), which has no place"
                + " for cp, and Megatron-Core's RankGenerator raises 'The size of (cp) is (2), but you haven't specified the order'"
                + " (megatron/core/parallel_state.py), so the job stops at start-up; to keep the switch set cp to 1, or drop it;"
                + " the value is left out, so the estimate keeps the default rank order tp-cp-ep-dp-pp."), Foreign.syn002(cp));
        // ep 2 the same, in the expert generator (three lines added above the switch: line 17)
        var ep = Foreign.model("megatron_gpt_config.yaml", NEMO1.formatted("1", "true").replace("  num_attention_heads: 32\n",
                "  num_attention_heads: 32\n  num_moe_experts: 8\n  moe_router_topk: 2\n  expert_model_parallel_size: 2\n"));
        assertNull(ep.jobs().get(0).parallelism().order());
        List<String> syn = Foreign.syn002(ep);
        assertEquals(1, syn.size(), "" + syn);
        assertEquals("17:25 'model.use_tp_pp_dp_mapping' is 'true'; expected off with ep 2,", syn.get(0).substring(0, syn.get(0).indexOf(" or context")));
    }

    private static final String NEMO2 = """
            trainer:
              devices: 8
              num_nodes: 2
              strategy:
                _target_: nemo.lightning.pytorch.strategies.megatron_strategy.MegatronStrategy
                tensor_model_parallel_size: 2
                pipeline_model_parallel_size: 2
                context_parallel_size: %s
                use_tp_pp_dp_mapping: %s
            data:
              micro_batch_size: 1
              global_batch_size: 64
              seq_length: 8192
            model:
              config:
                num_layers: 32
                hidden_size: 4096
                num_attention_heads: 32
            """;

    @Test
    void nemo2sStrategyArgumentBindsMegatronsOrder() {
        // MegatronStrategy(use_tp_pp_dp_mapping=True): _strategy_lib's init_model_parallel passes tp-cp-ep-pp-dp
        var m = Foreign.model("pretrain.yaml", NEMO2.formatted("1", "true"));
        Specs.Job j = m.jobs().get(0);
        assertEquals(MAPPED, j.parallelism().order().value());
        assertEquals(9, j.parallelism().order().span().startLine());
        assertEquals(List.of(), Foreign.syn002(m));
        assertNull(Foreign.bind("pretrain.yaml", NEMO2.formatted("1", "false")).parallelism().order());
        // cp 2 with pp 2: megatron_init.py's fake_initialize_model_parallel asserts as Megatron-Core does, refused in NeMo 2's key
        var refused = Foreign.model("pretrain.yaml", NEMO2.formatted("2", "true"));
        assertNull(refused.jobs().get(0).parallelism().order());
        List<String> syn = Foreign.syn002(refused);
        assertEquals(1, syn.size(), "" + syn);
        assertEquals("9:27 'trainer.strategy.use_tp_pp_dp_mapping' is 'true'; expected off with pp 2",
                syn.get(0).substring(0, syn.get(0).indexOf(", or expert")));
    }

    private static String dpTier(Path dir, String mapping) {
        String sh = """
                #!/bin/bash
                torchrun --nnodes 2 --nproc_per_node 8 pretrain_gpt.py \\
                  --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --seq-length 4096 --ffn-hidden-size 14336 \\
                  --vocab-size 128256 --swiglu --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 \\
                  --micro-batch-size 1 --global-batch-size 64 --bf16 --use-distributed-optimizer%s
                """.formatted(mapping);
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("train.sh", sh).jobClusters("lab", "*.sh").planJson();
        Map<String, Object> time = PlanCli.map(PlanCli.map(r.json().get("current")).get("time"));
        return (String) PlanCli.map(time.get("tiers")).get("dp");
    }

    @Test
    void thePlanPricesTheDataParallelGroupInTheSwitchsOrder(@TempDir Path dir) {
        // 2 nodes of 8, tp 2, pp 2, dp 4: in the default order dp's ranks are 2 apart ({0, 2, 4, 6}, one node's NVLink); in
        // tp-cp-ep-pp-dp they are tp·pp = 4 apart ({0, 4, 8, 12}), across both nodes
        assertEquals("nvlink", dpTier(dir.resolve("default"), ""));
        assertEquals("network", dpTier(dir.resolve("mapped"), " \\\n  --use-tp-pp-dp-mapping"));
    }
}
