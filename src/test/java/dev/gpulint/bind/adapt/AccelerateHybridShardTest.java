package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * accelerate's FSDP hybrid sharding read as the plan and NET003 price it (HybridSync): FSDP1's HYBRID_SHARD (4) and
 * HYBRID_SHARD_ZERO2 (5), given no process group by accelerate, shard within each machine's GPUs and replicate across the
 * machines (torch/distributed/fsdp/_init_utils.py, _init_process_group_state_for_hybrid_shard), so the shard group is
 * num_processes ÷ num_machines GPUs (parallelism.dp_shard, at the strategy's value); FSDP2's parallelism_config
 * dp_replicate × dp_shard is HSDP with the dp_shard group. An accelerate config names no model, so neither NET003 nor the
 * plan can price such a job from it alone: these cases pin the inputs both read (the native manifest's dp_shard cases,
 * HybridSyncCheckAndPlanTest, pin what they do with them).
 */
class AccelerateHybridShardTest {

    /** Two machines of eight GPUs, accelerate's FSDP1 config as `accelerate config` writes it, strategy {@code strategy}. */
    private static String fsdp(String strategy, String machines, String processes) {
        return """
                compute_environment: LOCAL_MACHINE
                debug: false
                distributed_type: FSDP
                downcast_bf16: 'no'
                fsdp_config:
                  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP
                  fsdp_backward_prefetch: BACKWARD_PRE
                  fsdp_offload_params: false
                  fsdp_sharding_strategy: %s
                  fsdp_state_dict_type: SHARDED_STATE_DICT
                  fsdp_use_orig_params: true
                machine_rank: 0
                main_process_ip: 10.0.0.1
                main_process_port: 29500
                main_training_function: main
                mixed_precision: bf16
                %s%s
                rdzv_backend: static
                same_network: true
                use_cpu: false
                """.formatted(strategy, machines == null ? "" : "num_machines: " + machines + "\n", "num_processes: " + processes);
    }

    private static List<String> hybridLines(Specs.Job j) {
        return j.origin().unpriced().stream().filter(s -> s.startsWith("fsdp_sharding_strategy")).toList();
    }

    @Test
    void hybridShardShardsWithinEachMachine() {
        for (String strategy : List.of("HYBRID_SHARD", "4")) {
            Specs.Job j = Foreign.bind("fsdp_multi_node.yaml", fsdp(strategy, "2", "16"));
            assertEquals(3, j.optimizer().zeroStage().value(), strategy);
            Specs.Parallelism p = j.parallelism();
            assertEquals(8, p.dpShard().value(), strategy + ": the GPUs of one machine, 16 ÷ 2");
            assertEquals(9, p.dpShard().span().startLine(), "at the strategy's value");
            assertEquals(27, p.dpShard().span().startColumn());
            assertEquals(List.of("fsdp_sharding_strategy " + strategy + " (HYBRID_SHARD): FSDP shards the weights, gradients and"
                    + " optimizer states within each machine's 8 GPUs (num_processes ÷ num_machines: torch FSDP's intra-node group)"
                    + " and replicates them across the machines"), hybridLines(j));
        }
    }

    @Test
    void hybridShardZero2IsStageTwoWithinTheMachine() {
        for (String strategy : List.of("HYBRID_SHARD_ZERO2", "5")) {
            Specs.Job j = Foreign.bind("fsdp_multi_node.yaml", fsdp(strategy, "2", "16"));
            assertEquals(2, j.optimizer().zeroStage().value(), strategy + ": ZeRO-2 inside the machine, not FULL_SHARD's 3");
            assertEquals(8, j.parallelism().dpShard().value(), strategy);
            assertEquals(List.of("fsdp_sharding_strategy " + strategy + " (HYBRID_SHARD_ZERO2): FSDP shards the gradients and"
                    + " optimizer states within each machine's 8 GPUs (num_processes ÷ num_machines: torch FSDP's intra-node group)"
                    + " and replicates them across the machines"), hybridLines(j));
        }
    }

    @Test
    void theOtherStrategiesShardOverEveryRank() {
        for (String[] c : new String[][] {{"FULL_SHARD", "3"}, {"1", "3"}, {"SHARD_GRAD_OP", "2"}, {"2", "2"}, {"NO_SHARD", "0"}, {"3", "0"}}) {
            Specs.Job j = Foreign.bind("fsdp_multi_node.yaml", fsdp(c[0], "2", "16"));
            assertEquals(Long.parseLong(c[1]), j.optimizer().zeroStage().value(), c[0]);
            assertTrue(j.parallelism() == null || j.parallelism().dpShard() == null, c[0] + " has no shard group of its own");
            assertEquals(List.of(), hybridLines(j), c[0]);
        }
    }

    @Test
    void withoutTheGpusPerMachineTheShardGroupIsUnknownAndSaid() {
        Specs.Job j = Foreign.bind("fsdp_multi_node.yaml", fsdp("HYBRID_SHARD", "3", "16"));     // 16 ÷ 3 is no machine's count
        assertEquals(3, j.optimizer().zeroStage().value());
        assertTrue(j.parallelism() == null || j.parallelism().dpShard() == null);
        assertEquals(List.of("fsdp_sharding_strategy HYBRID_SHARD (HYBRID_SHARD): FSDP shards within each machine, but"
                + " num_processes ÷ num_machines does not give the GPUs per machine: the states shard over every data-parallel"
                + " rank"), hybridLines(j));
    }

    @Test
    void fsdp2sReplicateAndShardDegreesAreHsdpsShardGroup() {
        // accelerate's FSDP2 with a ParallelismConfig of 2 replicas × 2 shards and tp 2 on one machine of 8
        Specs.Job j = Foreign.bind("tp_hsdp.yaml", """
                compute_environment: LOCAL_MACHINE
                distributed_type: FSDP
                fsdp_config:
                  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP
                  fsdp_reshard_after_forward: true
                  fsdp_state_dict_type: SHARDED_STATE_DICT
                  fsdp_version: 2
                mixed_precision: bf16
                num_machines: 1
                num_processes: 8
                parallelism_config:
                  parallelism_config_dp_replicate_size: 2
                  parallelism_config_dp_shard_size: 2
                  parallelism_config_tp_size: 2
                """);
        Specs.Parallelism p = j.parallelism();
        assertEquals(4, p.dp().value(), "2 replicas × 2 shards");
        assertEquals(2, p.dpShard().value());
        assertEquals(13, p.dpShard().span().startLine());
        Specs.Job plain = Foreign.bind("tp.yaml", """
                distributed_type: FSDP
                num_processes: 8
                parallelism_config:
                  parallelism_config_dp_shard_size: 4
                  parallelism_config_tp_size: 2
                """);
        assertNull(plain.parallelism().dpShard(), "no replicate degree: FSDP over the 4 shards, not HSDP");
    }

    /** Two machines of eight GPUs under FSDP2, fsdp_config's {@code fsdp} lines and parallelism_config's {@code par} lines. */
    private static String fsdp2(String fsdp, String par) {
        return "compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nfsdp_config:\n  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n"
                + fsdp + "  fsdp_version: 2\nmixed_precision: bf16\nnum_machines: 2\nnum_processes: 16\n"
                + (par.isEmpty() ? "" : "parallelism_config:\n" + par);
    }

    private static List<String> fsdp2Lines(Specs.Job j) {
        return j.origin().unpriced().stream().filter(s -> s.startsWith("fsdp_config.fsdp_") && s.contains("with fsdp_version 2:")).toList();
    }

    @Test
    void fsdp2sReshardAfterForwardIsTheStage() {
        // fully_shard(reshard_after_forward=True) reshards after the forward (ZeRO-3); False keeps the parameters (ZeRO-2)
        Specs.Job keep = Foreign.bind("a.yaml", fsdp2("  fsdp_reshard_after_forward: false\n", ""));
        assertEquals(2, keep.optimizer().zeroStage().value());
        assertEquals(5, keep.optimizer().zeroStage().span().startLine(), "at fsdp_reshard_after_forward's value");
        assertEquals(List.of(), fsdp2Lines(keep));
        Specs.Job reshard = Foreign.bind("a.yaml", fsdp2("  fsdp_reshard_after_forward: true\n", ""));
        assertEquals(3, reshard.optimizer().zeroStage().value());
    }

    @Test
    void fsdp2sHybridStrategyNameMakesNoShardGroupOfTheMachine() {
        // FSDP1 would shard within each machine's 8; FSDP2 gets no mesh from accelerate without a parallelism_config: every rank
        Specs.Job j = Foreign.bind("a.yaml", fsdp2("  fsdp_sharding_strategy: HYBRID_SHARD_ZERO2\n", ""));
        assertEquals(2, j.optimizer().zeroStage().value(), "reshard_after_forward false, as accelerate to-fsdp2 converts it");
        assertTrue(j.parallelism() == null || j.parallelism().dpShard() == null, "no intra-node shard group under FSDP2");
        assertEquals(List.of("fsdp_config.fsdp_sharding_strategy: HYBRID_SHARD_ZERO2 with fsdp_version 2: FSDP2 builds no intra-node"
                + " shard group (accelerate hands fully_shard parallelism_config's mesh, else one dimension of every rank); read as"
                + " `accelerate to-fsdp2` converts it, reshard_after_forward false (ZeRO-2), over every data-parallel rank; HSDP is"
                + " parallelism_config_dp_replicate_size × parallelism_config_dp_shard_size"), fsdp2Lines(j));
        assertEquals(List.of(), j.origin().unpriced().stream().filter(s -> s.contains("intra-node group)")).toList(),
                "not FSDP1's machine group");
    }

    @Test
    void fsdp2sHybridWithAReplicateMeshIsStageTwoHsdpOverTheDpShardGroup() {
        // parallelism_config's 2 replicas × 8 shards with reshard_after_forward false: HSDP at stage 2 over the 8 (HybridSync)
        Specs.Job j = Foreign.bind("a.yaml", fsdp2("  fsdp_reshard_after_forward: false\n",
                "  parallelism_config_dp_replicate_size: 2\n  parallelism_config_dp_shard_size: 8\n"));
        assertEquals(2, j.optimizer().zeroStage().value());
        assertEquals(16, j.parallelism().dp().value());
        assertEquals(8, j.parallelism().dpShard().value());
        Specs.Job named = Foreign.bind("a.yaml", fsdp2("  fsdp_sharding_strategy: 4\n",
                "  parallelism_config_dp_replicate_size: 2\n  parallelism_config_dp_shard_size: 8\n"));
        assertEquals(3, named.optimizer().zeroStage().value(), "HYBRID_SHARD (4): reshard_after_forward true");
        assertEquals(8, named.parallelism().dpShard().value(), "parallelism_config's shard group, not the machine's");
        assertTrue(fsdp2Lines(named).get(0).contains("over parallelism_config's shard group of 8 (dp_replicate × dp_shard)"),
                fsdp2Lines(named).toString());
    }

    @Test
    void fsdp2sReshardAfterForwardWrittenAsAStrategyNameIsReadAsToFsdp2ConvertsIt() {
        Specs.Job j = Foreign.bind("a.yaml", fsdp2("  fsdp_reshard_after_forward: SHARD_GRAD_OP\n", ""));
        assertEquals(2, j.optimizer().zeroStage().value());
        assertEquals(List.of("fsdp_config.fsdp_reshard_after_forward: SHARD_GRAD_OP with fsdp_version 2: FSDP2 takes true or false;"
                + " read as `accelerate to-fsdp2` converts the name, false (ZeRO-2), over every data-parallel rank; write true or"
                + " false"), fsdp2Lines(j));
    }
}
