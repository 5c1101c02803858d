package dev.gpulint.derive.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.diagnose.Fixtures;
import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One quantity, one home, with what `gpulint plan` prices collectives with besides the catalog: the estimate NET003's
 * message gives (`gpulint check`) is the plan's gradient all-reduce (its JSON's {@code collectives}, as placed) less
 * NCCL's latency, when an nccl-tests run is linked to the node group (its bus bandwidth replaces line rate × efficiency)
 * and when the project's {@code plan:} overrides the catalog's network efficiency. Both go through the same
 * configuration and files, end to end.
 */
class AllReduceMeasuredCheckAndPlanTest {

    /** Two nodes of 8 H100 (8 × 400 Gb/s NICs), dp 16 over both: the gradient all-reduce runs on the network. */
    private static final String MANIFEST = "kind: cluster\nname: c\nnode_groups:\n  - { name: g, count: 2, gpu: { model: H100-SXM5-80GB, count: 8 },"
            + " nvlink: { switch: true }, nics: [ { model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true } ] }\n---\n"
            + "kind: training_job\nname: j\ncluster: c\nnode_group: g\nnodes: 2\nmodel: { parameters: 8B, dtype: bf16, layers: 32, hidden_size: 4096,"
            + " attention_heads: 32, kv_heads: 8, ffn_hidden_size: 14336, vocab_size: 128256, gated_mlp: true, tied_embeddings: false,"
            + " seq_length: 8192 }\nparallelism: { tp: 1, dp: 16 }\nbatch: { micro_batch_size: 1, global_batch_size: 64 }\nstep_time: 0.1 s\n";

    private static final Pattern ESTIMATE = Pattern.compile("at line rate, ([0-9.]+) s at the ([0-9]+)% of it NCCL reaches");

    private record Both(double checkSeconds, int checkPercent, String message, Map<String, Object> planRow) {}

    @SuppressWarnings("unchecked")
    private static Both run(Path dir, String config, String... evidence) throws IOException {
        Files.writeString(dir.resolve("j.yaml"), MANIFEST);
        Path conf = dir.resolve(".gpulint.yaml");
        Files.writeString(conf, config);
        String[] files = evidence.length == 0 ? new String[] {dir.resolve("j.yaml").toString()}
                : new String[] {dir.resolve("j.yaml").toString(), dir.resolve(evidence[0]).toString()};
        if (evidence.length > 0) Files.writeString(dir.resolve(evidence[0]), evidence[1]);

        PlanCli.Run plan = PlanCli.run(concat(new String[] {"plan", "-c", conf.toString(), "-f", "json", "--top", "1"}, files));
        assertEquals(0, plan.code(), plan.err() + plan.out());
        List<Map<String, Object>> tables = (List<Map<String, Object>>) plan.json().get("collectives");
        Map<String, Object> dp = tables.stream().filter(t -> "data-parallel gradient all-reduce".equals(t.get("what"))).findFirst().orElseThrow();
        List<Map<String, Object>> rows = ((List<Map<String, Object>>) dp.get("tiers")).stream()
                .filter(r -> Boolean.TRUE.equals(r.get("as_placed"))).toList();
        assertEquals(1, rows.size());

        PlanCli.Run check = PlanCli.run(concat(new String[] {"check", "-c", conf.toString(), "-f", "json"}, files));
        List<Map<String, Object>> findings = (List<Map<String, Object>>) check.json().get("findings");
        Map<String, Object> net003 = findings.stream().filter(f -> "NET003".equals(f.get("ruleId"))).findFirst()
                .orElseThrow(() -> new AssertionError(check.out()));
        String message = (String) net003.get("message");
        Matcher m = ESTIMATE.matcher(message);
        assertTrue(m.find(), message);
        return new Both(Double.parseDouble(m.group(1)), Integer.parseInt(m.group(2)), message, rows.get(0));
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static double n(Map<String, Object> m, String key) {
        return ((Number) m.get(key)).doubleValue();
    }

    /** NET003 prints two significant digits. */
    private static void sameEstimate(Both b) {
        double plan = n(b.planRow(), "estimate_s") - n(b.planRow(), "latency_s");
        assertEquals(plan, b.checkSeconds(), Math.max(0.01, plan * 0.05), b.message());
    }

    @Test
    void anNcclTestsRunLinkedToTheNodeGroupPricesBoth(@TempDir Path dir) throws IOException {
        // 120 GB/s measured across the two nodes: a third of the 360 GB/s NCCL's 0.9 of the ring's 400 GB/s would give
        Both b = run(dir, "evidence:\n  - { files: \"*.all_reduce_perf.txt\", cluster: c, node_group: g }\n",
                "burnin.all_reduce_perf.txt", Fixtures.allReduce(120));
        assertEquals("network", b.planRow().get("tier"));
        assertEquals(Boolean.TRUE, b.planRow().get("measured"), "the plan prices the network at the measured busbw");
        sameEstimate(b);
        assertEquals(30, b.checkPercent(), "120 of the 400 GB/s the ring has of the NICs: " + b.message());
        assertTrue(b.message().contains("(as the nccl-tests run linked to the node group measured it)"), b.message());
    }

    @Test
    void aProjectsPlanNetworkEfficiencyPricesBoth(@TempDir Path dir) throws IOException {
        Both b = run(dir, "plan:\n  network: 0.6\n");
        assertEquals("network", b.planRow().get("tier"));
        assertEquals(0.6, n(b.planRow(), "efficiency"), 1e-9);
        sameEstimate(b);
        assertEquals(60, b.checkPercent(), b.message());
        assertTrue(!b.message().contains("measured it"), b.message());
    }

    @Test
    void withNeitherBothKeepTheCatalogsNinety(@TempDir Path dir) throws IOException {
        Both b = run(dir, "rules: {}\n");
        sameEstimate(b);
        assertEquals(90, b.checkPercent(), b.message());
    }
}
