package dev.gpulint.derive.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A one-host nccl-tests run measures the tier inside its node ({@link NcclMeasured#tier}): NVLink on a DGX H100, PCIe on
 * a node of L40S (the catalog's "NVLink Support: No"). Filed under NVLink whatever the node, the L40S node's run was never
 * read: its dp all-reduce, which rides PCIe, kept the catalog's line rate × efficiency.
 */
class NcclMeasuredTierTest {

    /** all_reduce_perf over {@code gpu}'s 8 GPUs of one host, the largest rows at {@code peak} GB/s busbw. */
    static String oneHost(String gpu, double peak) {
        StringBuilder s = new StringBuilder("# nThread 1 nGpus 8 minBytes 134217728 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 "
                + "agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n");
        String[] bus = {"0x18", "0x2a", "0x3a", "0x5d", "0x9a", "0xab", "0xba", "0xdb"};
        for (int r = 0; r < 8; r++) {
            s.append(String.format(Locale.ROOT, "#  Rank %2d Group  0 Pid   4100 on    node-01 device  %d [%s] NVIDIA %s%n", r, r, bus[r], gpu));
        }
        s.append("#\n#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n");
        s.append("#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       \n");
        int rows = 0;
        for (long b = 1L << 27; b <= 1L << 33; b <<= 1, rows++) {
            double busbw = peak * Math.min(1, 0.4 + 0.1 * rows), algbw = busbw * 8 / 14, us = b / (algbw * 1e3);
            s.append(String.format(Locale.ROOT, "%12d  %12d     float     sum      -1  %8.1f  %6.2f  %6.2f      0  %8.1f  %6.2f  %6.2f      0%n",
                    b, b / 4, us, algbw, busbw, us * 1.01, algbw / 1.01, busbw / 1.01));
        }
        return s.append("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : ").append(peak * 0.8).append(" \n#\n").toString();
    }

    static String manifest(String gpu, String nvlink) {
        return "kind: cluster\nname: c\nnode_groups:\n  - { name: g, count: 1, gpu: { model: " + gpu + ", count: 8 }" + nvlink + " }\n---\n"
                + "kind: training_job\nname: j\ncluster: c\nnode_group: g\nnodes: 1\nmodel: { parameters: 1B, dtype: bf16, layers: 16, "
                + "hidden_size: 2048, attention_heads: 16, kv_heads: 8, ffn_hidden_size: 8192, vocab_size: 32000, gated_mlp: true, "
                + "seq_length: 4096 }\nparallelism: { tp: 1, dp: 8 }\nbatch: { micro_batch_size: 1, global_batch_size: 64 }\n";
    }

    /** The plan's dp all-reduce row as placed: tier, measured, estimate (s). */
    @SuppressWarnings("unchecked")
    static Map<String, Object> placed(Path dir, String manifest, String run) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("j.yaml"), manifest);
        Files.writeString(dir.resolve("node.all_reduce_perf.txt"), run);
        Path conf = dir.resolve(".gpulint.yaml");
        Files.writeString(conf, "evidence:\n  - { files: \"*.all_reduce_perf.txt\", cluster: c, node_group: g }\n");
        PlanCli.Run r = PlanCli.run("plan", "-c", conf.toString(), "-f", "json", "--top", "1", dir.resolve("j.yaml").toString(),
                dir.resolve("node.all_reduce_perf.txt").toString());
        assertEquals(0, r.code(), r.err() + r.out());
        List<Map<String, Object>> tables = (List<Map<String, Object>>) r.json().get("collectives");
        Map<String, Object> dp = tables.stream().filter(t -> "data-parallel gradient all-reduce".equals(t.get("what"))).findFirst().orElseThrow();
        return ((List<Map<String, Object>>) dp.get("tiers")).stream().filter(x -> Boolean.TRUE.equals(x.get("as_placed"))).findFirst().orElseThrow();
    }

    @Test
    void aPcieNodesOneHostRunPricesItsPcieTier(@TempDir Path dir) throws IOException {
        // 8 L40S, no NVLink: dp 8 rides PCIe Gen4 (31.5 GB/s per direction × the catalog's 0.8); the run measured 15 GB/s
        Map<String, Object> row = placed(dir, manifest("L40S", ""), oneHost("L40S", 15));
        assertEquals("pcie", row.get("tier"));
        assertEquals(Boolean.TRUE, row.get("measured"), row.toString());
        // the row's ideal is at the 31.5 GB/s line rate, its estimate at the 15 GB/s measured (not the catalog's 0.8 of 31.5)
        double ideal = ((Number) row.get("ideal_s")).doubleValue(), estimate = ((Number) row.get("estimate_s")).doubleValue();
        double latency = ((Number) row.get("latency_s")).doubleValue();
        assertEquals(31.5 / 15, (estimate - latency) / (ideal - latency), 0.01, row.toString());
    }

    @Test
    void anNvlinkNodesOneHostRunStillPricesNvlink(@TempDir Path dir) throws IOException {
        Map<String, Object> row = placed(dir, manifest("H100-SXM5-80GB", ", nvlink: { switch: true }"), oneHost("H100 80GB HBM3", 360));
        assertEquals("nvlink", row.get("tier"));
        assertEquals(Boolean.TRUE, row.get("measured"), row.toString());
    }
}
