package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #37 item 3: NET003 and the plan do not price the network on a NIC speed UNIT001 flags in the same run. A cluster
 * writing its NDR ports as {@code 400 GB/s} (3200 Gb/s: 8× too fast) made the all-reduce look 8× faster, so NET003 stayed
 * quiet and the plan was optimistic. Now both price the port speed it most likely means (400 Gb/s) and say so: the
 * figures equal those of the cluster written right, and only the words differ.
 */
class MisreadNicPricingCliTest {

    /** One NDR NIC per node shared by 8 data-parallel rings: 8.75 GB at 6.25 GB/s per ring is 1.4 s, over the 1 s step. */
    static final String JOB = """
            kind: cluster
            name: c
            fabric: { type: infiniband }
            node_groups:
              - name: g
                count: 8
                gpu: { model: H100-SXM5-80GB, count: 8 }
                nics:
                  - { model: ConnectX-7, count: 1, speed: 400 GB/s }
            ---
            kind: training_job
            name: j
            cluster: c
            nodes: 8
            model: { parameters: 70B, dtype: bf16 }
            parallelism: { tp: 8, pp: 4, dp: 2 }
            step_time: 1 s
            """;

    private static String line(String out, String rule) {
        return Arrays.stream(out.split("\n")).filter(l -> l.endsWith("[" + rule + "]")).collect(Collectors.joining("\n"));
    }

    @Test
    void net003PricesTheSpeedTheMisreadNicMostLikelyMeansAndSaysSo(@TempDir Path dir) throws IOException {
        CliTest.write(dir, "wrong.yaml", JOB);
        CliTest.write(dir, "right.yaml", JOB.replace("400 GB/s", "400 Gb/s"));
        PlanCli.Run wrong = PlanCli.run("check", "--no-color", dir.resolve("wrong.yaml").toString());
        PlanCli.Run right = PlanCli.run("check", "--no-color", dir.resolve("right.yaml").toString());
        String w = line(wrong.out(), "NET003"), r = line(right.out(), "NET003");
        assertTrue(line(wrong.out(), "UNIT001").contains("400 GB/s for the ConnectX-7 InfiniBand port speed is 8× above"), wrong.out());
        assertTrue(w.contains("about 1.4 s at line rate, 1.56 s at the 90% of it NCCL reaches, against the step time of 1 s"),
                "priced at 400 Gb/s, not at the 3200 Gb/s written (0.18 s: quiet): " + wrong.out());
        assertTrue(w.contains("(1 × 400 GB/s ConnectX-7 per node, priced at 400 Gb/s each, the InfiniBand NDR port speed that the"
                + " 400 GB/s written most likely means (UNIT001 finds it 8× off), shared by 8 data-parallel rings: 6.25 GB/s each)"), w);
        // the same finding as on the cluster written right, but for the NIC as written and the clause that says so
        assertEquals(r.replace(dir.resolve("right.yaml").toString(), "F").replace("1 × 400 Gb/s ConnectX-7 per node,",
                        "1 × 400 GB/s ConnectX-7 per node, priced at 400 Gb/s each, the InfiniBand NDR port speed that the"
                        + " 400 GB/s written most likely means (UNIT001 finds it 8× off),"),
                w.replace(dir.resolve("wrong.yaml").toString(), "F"));
        assertFalse(r.contains("priced at") || r.contains("UNIT001"), "a NIC speed written right is priced as written: " + r);
    }

    @Test
    void aNicSpeedOfAnotherPortIsNoMisreadingAndStaysAsWritten(@TempDir Path dir) throws IOException {
        // 200 Gb/s on a ConnectX-7 is HDR, a port speed of its own: priced as written (twice the 400 Gb/s time), no clause
        CliTest.write(dir, "hdr.yaml", JOB.replace("400 GB/s", "200 Gb/s"));
        PlanCli.Run run = PlanCli.run("check", "--no-color", dir.resolve("hdr.yaml").toString());
        String n = line(run.out(), "NET003");
        assertTrue(n.contains("(1 × 200 Gb/s ConnectX-7 per node, shared by 8 data-parallel rings: 3.125 GB/s each): about 2.8 s"), run.out());
        assertFalse(run.out().contains("UNIT001") || n.contains("priced at"), run.out());
    }

    private static final String PLANNED = JOB.replace("""
            model: { parameters: 70B, dtype: bf16 }
            """, """
            gpus_per_node: 8
            model: { parameters: 70B, dtype: bf16, layers: 80, attention_heads: 64, kv_heads: 8, hidden_size: 8192,
                     ffn_hidden_size: 28672, vocab_size: 32000, gated_mlp: true, seq_length: 4096 }
            batch: { micro_batch_size: 1, global_batch_size: 128 }
            optimizer: { distributed: true }
            """).replace("count: 1, speed", "count: 8, speed");

    @Test
    void thePlanPricesTheMisreadNicAsTheClusterWrittenRightAndSaysSo(@TempDir Path dir) throws IOException {
        CliTest.write(dir, "wrong.yaml", PLANNED);
        CliTest.write(dir, "right.yaml", PLANNED.replace("400 GB/s", "400 Gb/s"));
        for (String format : new String[] {"text", "json"}) {
            PlanCli.Run wrong = PlanCli.run("plan", "-f", format, dir.resolve("wrong.yaml").toString());
            PlanCli.Run right = PlanCli.run("plan", "-f", format, dir.resolve("right.yaml").toString());
            assertEquals(0, wrong.code(), wrong.err());
            assertTrue(wrong.out().contains("8 × 400 GB/s ConnectX-7 per node (RDMA, read as 400 Gb/s: UNIT001)"), wrong.out());
            assertTrue(wrong.out().contains("node NIC speed 400 GB/s is priced at 400 Gb/s each, the InfiniBand NDR port speed it"
                    + " most likely means: UNIT001 finds it 8× off"), wrong.out());
            assertFalse(right.out().contains("read as") || right.out().contains("priced at 400"), right.out());
            // every figure is the right cluster's: take out what differs in words and the two reports are the same
            String words = wrong.out()
                    .replace("8 × 400 GB/s ConnectX-7 per node (RDMA, read as 400 Gb/s: UNIT001)", "8 × 400 Gb/s ConnectX-7 per node (RDMA)")
                    .replaceAll(format.equals("text") ? "(?m)^  node NIC speed 400 GB/s is priced[^\n]*\n" : ", \"node NIC speed 400 GB/s is priced[^\"]*\"", "")
                    .replaceAll(format.equals("text") ? "(?m)^  findings of the cluster[^\n]*UNIT001\n" : "(?s)\"cluster_findings\" : \\[ \"UNIT001\" \\]", 
                            format.equals("text") ? "" : "\"cluster_findings\" : [ ]")
                    .replace("wrong.yaml", "right.yaml");
            assertEquals(right.out(), words, format);
        }
    }
}
