package dev.gpulint.derive.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.derive.Fixture;
import dev.gpulint.facts.AllReduceFact;
import java.util.List;
import org.junit.jupiter.api.Test;

/** NET003's analysis: the gradient all-reduce's link, bandwidth and time, worked out by hand. */
class AllReduceAnalysisTest {

    private static final String NICS = ", nics: [ { model: ConnectX-7, count: 8, speed: 400 Gb/s } ]";

    private static List<AllReduceFact> facts(String group, String job) {
        Fixture f = Fixture.of("kind: cluster\nname: c\nnode_groups:\n  - { name: g, count: 8, " + group + " }\n---\n"
                + "kind: training_job\nname: j\ncluster: c\n" + job);
        return f.jobFacts(AllReduceFact.class, (j, out) -> AllReduceAnalysis.job(j, f.catalog(), java.util.Map.of(), java.util.Map.of(), out));
    }

    private static AllReduceFact fact(String group, String job) {
        List<AllReduceFact> f = facts(group, job);
        assertEquals(1, f.size());
        return f.get(0);
    }

    private static final String H100 = "gpu: { model: H100-SXM5-80GB, count: 8 }";

    @Test
    void dpInsideAnNvswitchNodeUsesNvlink() {
        // 1B bf16 gradients, reduced in bf16 as the job states = 2 GB over 8 ranks at 900/2 GB/s: 2·7/8·2e9 / 450e9
        AllReduceFact f = fact(H100 + NICS, "nodes: 1\nmodel: { parameters: 1B, dtype: bf16 }\noptimizer: { bytes_per_parameter: 16 }\n"
                + "step_time: 2.5 s\n");
        assertEquals(AllReduceFact.Link.NVLINK, f.getLink());
        assertEquals(4, f.getGeneration());
        assertEquals(450e9, f.getLinkBytesPerSecond(), 1);
        assertEquals(8, f.getRanks());
        assertEquals(2, f.getBytesPerGradient());
        assertEquals("bf16", f.getDtype());
        assertEquals(2e9, f.getGradientBytes(), 1);
        assertEquals(1, f.getVolumeFactor());
        assertEquals(3.5e9, f.getSentBytes(), 1);
        assertEquals(3.5e9 / 450e9, f.getSeconds(), 1e-12);
        assertEquals(2.5, f.getStepTime());
        assertEquals(0, f.getNics());
        assertNull(f.getNicName());
        assertEquals(1, f.getRingsPerNode());
        assertEquals("g", f.getGroupName());
        assertEquals("t.yaml:10:22", f.getSpan().toString(), "no parallelism: at the parameters");
        assertEquals("gradients reduced in 16-bit (2 bytes each): optimizer.bytes_per_parameter 16 as written", f.getGradientWhy());
        assertEquals(f.getSeconds() / 0.8, f.getEstimatedSeconds(), 1e-12, "Hopper's NVLink efficiency, as the plan prices it");
    }

    @Test
    void bf16GradientsAreReducedInFp32UnlessTheJobSaysOtherwise() {
        // Megatron-LM forces --accumulate-allreduce-grads-in-fp32 with --bf16: the plan's 18-byte accounting's 4-byte gradients
        AllReduceFact f = fact(H100 + NICS, "nodes: 1\nmodel: { parameters: 1B, dtype: bf16 }\n");
        assertEquals(4, f.getBytesPerGradient());
        assertEquals(4e9, f.getGradientBytes(), 1);
        assertEquals(true, f.getGradientWhy().startsWith("gradients reduced in fp32 (4 bytes each): bf16, the default of Megatron-LM"), f.getGradientWhy());
        assertEquals(4, fact(H100 + NICS, "nodes: 1\nmodel: { parameters: 1B, dtype: bf16 }\noptimizer: { zero_stage: 3 }\n")
                .getBytesPerGradient(), "FSDP's default reduces in fp32 too (torchtitan's mixed_precision_reduce)");
        assertEquals(2, fact(H100 + NICS, "nodes: 1\nmodel: { parameters: 1B, dtype: fp16 }\n").getBytesPerGradient(), "fp16");
    }

    @Test
    void dpInsideAnUnbridgedPcieNodeUsesPcie() {
        AllReduceFact f = fact("gpu: { model: A100-PCIe-80GB, count: 8 }", "nodes: 1\nmodel: { parameters: 1B, dtype: fp32 }\n");
        assertEquals(AllReduceFact.Link.PCIE, f.getLink());
        assertEquals(4, f.getGeneration());
        assertEquals(31.5e9, f.getLinkBytesPerSecond(), 1);
        assertEquals(4, f.getBytesPerGradient());
        assertEquals(4e9, f.getGradientBytes(), 1);
        assertEquals(2.0 * 7 / 8 * 4e9 / 31.5e9, f.getSeconds(), 1e-12);
        assertEquals(0, f.getStepTime());
    }

    @Test
    void dpAcrossNodesUsesTheNicsOneRingPerGpu() {
        // tp 8 fills each node: dp 4 ranks, one per node, 8 rings share the node's 8 × 50 GB/s; model.dtype not given (bf16):
        // 4-byte fp32 main gradients
        AllReduceFact f = fact(H100 + NICS, "nodes: 4\nmodel: { parameters: 70B }\nparallelism: { tp: 8 }\n");
        assertEquals(AllReduceFact.Link.NETWORK, f.getLink());
        assertEquals(0, f.getGeneration());
        assertEquals(8, f.getNics());
        assertEquals("400 Gb/s ConnectX-7", f.getNicName());
        assertEquals("t.yaml:4:114", f.getNicSpan().toString());
        assertEquals(8, f.getRingsPerNode());
        assertEquals(50e9, f.getLinkBytesPerSecond(), 1);
        assertEquals(4, f.getRanks());
        assertEquals(8, f.getTp());
        assertEquals(35e9, f.getGradientBytes(), 1);
        assertEquals(1.05, f.getSeconds(), 1e-12);
        assertEquals("t.yaml:11:1", f.getSpan().toString(), "dp not stated: at the parallelism key");
    }

    @Test
    void ringsPerNodeFollowTheDpMembersOnANode() {
        // tp 2, dp 8 over 2 nodes: 4 dp members per node, so 8 / 4 = 2 rings share the NICs
        AllReduceFact f = fact(H100 + NICS, "nodes: 2\nmodel: { parameters: 1B }\nparallelism: { tp: 2, dp: 8 }\n");
        assertEquals(AllReduceFact.Link.NETWORK, f.getLink());
        assertEquals(2, f.getRingsPerNode());
        assertEquals(200e9, f.getLinkBytesPerSecond(), 1);
        assertEquals("t.yaml:11:27", f.getSpan().toString(), "at the stated dp");
    }

    @Test
    void zero3SendsHalfAgainAsMuch() {
        AllReduceFact f = fact(H100 + NICS, "nodes: 4\nmodel: { parameters: 70B }\nparallelism: { tp: 8 }\noptimizer: { zero_stage: 3 }\n");
        assertEquals(1.5, f.getVolumeFactor());
        assertEquals(2.0 * 3 / 4 * 35e9 * 1.5, f.getSentBytes(), 1, "fp32 gradients");
        assertEquals(1.05 * 1.5, f.getSeconds(), 1e-12);
        assertEquals(1, fact(H100 + NICS, "nodes: 4\nmodel: { parameters: 70B }\nparallelism: { tp: 8 }\noptimizer: { zero_stage: 2 }\n")
                .getVolumeFactor());
    }

    @Test
    void noFactWithoutWhatTheEstimateNeeds() {
        assertEquals(List.of(), facts(H100, "nodes: 4\nmodel: { parameters: 70B }\nparallelism: { tp: 8 }\n"), "no NIC speeds");
        assertEquals(List.of(), facts(H100 + NICS, "nodes: 1\nmodel: { parameters: 7B }\nparallelism: { tp: 8 }\n"), "dp 1");
        assertEquals(List.of(), facts(H100 + NICS, "nodes: 1\n"), "no parameters");
        assertEquals(List.of(), facts(H100 + NICS, "node_group: z\nnodes: 1\nmodel: { parameters: 7B }\n"), "no group");
        assertEquals(List.of(), facts("gpu: { model: Foo-9000, count: 8 }", "nodes: 1\nmodel: { parameters: 7B }\n"),
                "inside a node of an unknown GPU: no PCIe figure");
    }
}
