package dev.gpulint.derive.mem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.Fixture;
import dev.gpulint.facts.MemoryFact;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The MEM family's analysis: model states per GPU against the GPU's memory. */
class MemoryAnalysisTest {

    private static final double GIB80 = 80.0 * (1L << 30);

    /** One node of 8 GPUs described by {@code gpu}, running a job with {@code job} below nodes: 1. */
    private static List<MemoryFact> facts(String gpu, String job) {
        return Fixture.of("kind: cluster\nname: c\nnode_groups:\n  - { name: g, count: 1, gpu: { " + gpu + " } }\n---\n"
                + "kind: training_job\nname: j\ncluster: c\nnodes: 1\n" + job).jobFacts(MemoryFact.class, MemoryAnalysis::job);
    }

    private static MemoryFact fact(String gpu, String job) {
        List<MemoryFact> f = facts(gpu, job);
        assertEquals(1, f.size());
        return f.get(0);
    }

    private static final String H100 = "model: H100-SXM5-80GB, count: 8";

    @Test
    void withoutZeroEachGpuHoldsSixteenBytesPerParameter() {
        MemoryFact f = fact(H100, "model: { parameters: 7B }\n");
        assertEquals("j", f.getJobName());
        assertEquals(7e9, f.getParameters());
        assertEquals(16, f.getBytesPerParameter());
        assertFalse(f.isBytesFromConfig());
        assertEquals(2, f.getWeightBytes());
        assertEquals(2, f.getGradientBytes());
        assertEquals(12, f.getOptimizerBytes());
        assertEquals(1, f.getTp());
        assertEquals(1, f.getPp());
        assertEquals(8, f.getDp());
        assertEquals(0, f.getZeroStage());
        assertEquals(112e9, f.getPerGpuBytes(), 1);
        assertEquals(GIB80, f.getCapacityBytes());
        assertEquals(112e9 / GIB80, f.getRatio(), 1e-12);
        assertEquals("H100-SXM5-80GB", f.getGpuName());
        assertEquals("g", f.getGroupName());
        assertFalse(f.isCapacityDeclared());
        assertEquals("t.yaml:4:40", f.getCapacitySpan().toString(), "the model, whose catalog entry gives the capacity");
        assertEquals("t.yaml:10:22", f.getParametersSpan().toString());
    }

    @Test
    void aMatchingDeclaredMemoryIsTheCatalogsCapacityAtTheDeclaration() {
        MemoryFact f = fact(H100 + ", memory: 80 GB", "model: { parameters: 7B }\n");
        assertTrue(f.isCapacityDeclared());
        assertEquals(GIB80, f.getCapacityBytes(), "80 GB on the datasheet is 80 GiB of HBM");
        assertEquals("t.yaml:4:74", f.getCapacitySpan().toString());
    }

    @Test
    void aDeclaredMemoryTheCatalogDoesNotListIsTheCapacityAndSaysSo() {
        // a 96 GB H100 variant the catalog does not list: held to its 96 GB, not to the catalog's 80 GiB (HW004 names the difference)
        MemoryFact f = fact(H100 + ", memory: 96 GB", "model: { parameters: 7B }\n");
        assertTrue(f.isCapacityDeclared());
        assertTrue(f.isCapacityOverridesCatalog());
        assertEquals(96e9, f.getCapacityBytes());
        assertEquals(GIB80, f.getCatalogCapacityBytes());
        assertEquals("t.yaml:4:74", f.getCapacitySpan().toString());
        assertFalse(fact(H100 + ", memory: 80 GB", "model: { parameters: 7B }\n").isCapacityOverridesCatalog());
    }

    @Test
    void megatronsDistributedOptimizerShardsTheOptimizerStatesOverDpTimesCp() {
        // Llama 3 8B, bf16, dp 8: theoretical_memory_usage.py's 6 + 12/8 bytes per parameter
        MemoryFact f = fact(H100, "model: { parameters: 8.03B, dtype: bf16 }\noptimizer: { distributed: true }\n");
        assertEquals("megatron-bf16", f.getAccounting());
        assertTrue(f.isDistributed());
        assertEquals(18, f.getBytesPerParameter());
        assertEquals(8.03e9 * 7.5, f.getPerGpuBytes(), 1);
        // cp 2 over the same 8 GPUs: dp 4, the shards over dp × cp = 8 as before
        MemoryFact cp = fact(H100, "model: { parameters: 8.03B, dtype: bf16 }\nparallelism: { cp: 2 }\noptimizer: { distributed: true }\n");
        assertEquals(4, cp.getDp());
        assertEquals(2, cp.getCp());
        assertEquals(8.03e9 * 7.5, cp.getPerGpuBytes(), 1);
        // without it: 18 bytes whole
        assertEquals(8.03e9 * 18, fact(H100, "model: { parameters: 8.03B, dtype: bf16 }\n").getPerGpuBytes(), 1);
    }

    @Test
    void anUnknownGpuUsesItsDeclaredMemoryOrGivesNoFact() {
        MemoryFact f = fact("model: Foo-9000, count: 8, memory: 48 GB", "model: { parameters: 1B }\n");
        assertTrue(f.isCapacityDeclared());
        assertEquals(48e9, f.getCapacityBytes());
        assertNull(f.getGpuName());
        assertEquals(16e9, f.getPerGpuBytes(), 1);

        assertEquals(List.of(), facts("model: Foo-9000, count: 8", "model: { parameters: 1B }\n"));
    }

    @Test
    void zeroStagesShardOverDp() {
        // 7B, dp 8: optimizer 12/8, then gradients 2/8, then weights 2/8
        assertEquals(7e9 * 5.5, fact(H100, "model: { parameters: 7B }\noptimizer: { zero_stage: 1 }\n").getPerGpuBytes(), 1);
        assertEquals(7e9 * 3.75, fact(H100, "model: { parameters: 7B }\noptimizer: { zero_stage: 2 }\n").getPerGpuBytes(), 1);
        MemoryFact z3 = fact(H100, "model: { parameters: 7B }\noptimizer: { zero_stage: 3 }\n");
        assertEquals(14e9, z3.getPerGpuBytes(), 1);
        assertEquals(3, z3.getZeroStage());
    }

    @Test
    void hybridShardingShardsOverTheShardGroupTimesCp() {
        // 8 GPUs, cp 2: dp 4 = 2 replicas × a shard group of 2; ZeRO-3's 16 bytes over shard 2 × cp 2 = 4 ranks, not dp·cp 8
        MemoryFact f = fact(H100, "model: { parameters: 7B }\nparallelism: { cp: 2, dp: 4, dp_shard: 2 }\noptimizer: { zero_stage: 3 }\n");
        assertTrue(f.isHybrid());
        assertEquals(2, f.getShard());
        assertEquals(2, f.getReplicas());
        assertEquals(7e9 * 16 / 4, f.getPerGpuBytes(), 1);
        // a shard group of all of dp is plain ZeRO-3 over dp·cp
        MemoryFact all = fact(H100, "model: { parameters: 7B }\nparallelism: { cp: 2, dp: 4, dp_shard: 4 }\noptimizer: { zero_stage: 3 }\n");
        assertFalse(all.isHybrid());
        assertEquals(1, all.getReplicas());
        assertEquals(7e9 * 16 / 8, all.getPerGpuBytes(), 1);
        // the distributed optimizer shards the optimizer states over the same group
        MemoryFact dist = fact(H100, "model: { parameters: 7B, dtype: bf16 }\nparallelism: { dp: 8, dp_shard: 2 }\noptimizer: { distributed: true }\n");
        assertEquals(7e9 * (6 + 12.0 / 2), dist.getPerGpuBytes(), 1);
    }

    @Test
    void tensorAndPipelineParallelismDivideTheParameters() {
        MemoryFact f = fact(H100, "model: { parameters: 70B }\nparallelism: { tp: 4, pp: 2 }\n");
        assertEquals(1, f.getDp());
        assertEquals(70e9 / 8 * 16, f.getPerGpuBytes(), 1);
    }

    @Test
    void bytesPerParameterOverridesTheSplit() {
        MemoryFact megatron = fact(H100, "model: { parameters: 1B }\noptimizer: { bytes_per_parameter: 18 }\n");
        assertTrue(megatron.isBytesFromConfig());
        assertEquals(18, megatron.getBytesPerParameter());
        assertEquals(2, megatron.getWeightBytes());
        assertEquals(4, megatron.getGradientBytes());
        assertEquals(12, megatron.getOptimizerBytes());
        assertEquals(18e9, megatron.getPerGpuBytes(), 1);

        MemoryFact eightBit = fact(H100, "model: { parameters: 1B }\noptimizer: { bytes_per_parameter: 8, zero_stage: 1 }\n");
        assertEquals(1, eightBit.getWeightBytes());
        assertEquals(1, eightBit.getGradientBytes());
        assertEquals(6, eightBit.getOptimizerBytes());
        assertEquals(1e9 * (1 + 1 + 6.0 / 8), eightBit.getPerGpuBytes(), 1);
    }

    @Test
    void zeroWithAnUnknownDpGivesNoFact() {
        // 8 GPUs do not divide by tp 3: dp unknown
        assertEquals(List.of(), facts(H100, "model: { parameters: 7B }\nparallelism: { tp: 3 }\noptimizer: { zero_stage: 1 }\n"));
        MemoryFact noZero = fact(H100, "model: { parameters: 7B }\nparallelism: { tp: 3 }\n");
        assertEquals(0, noZero.getDp());
        assertEquals(7e9 / 3 * 16, noZero.getPerGpuBytes(), 1);
    }

    @Test
    void noParametersNoFact() {
        assertEquals(List.of(), facts(H100, "model: { layers: 32 }\n"));
        assertEquals(List.of(), facts(H100, "parallelism: { tp: 2 }\n"));
    }
}
