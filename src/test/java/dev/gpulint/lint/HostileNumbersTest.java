package dev.gpulint.lint;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Finding;
import dev.gpulint.read.SourceFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import dev.gpulint.testing.CpuBudget;

/**
 * Huge sizes whose products overflow a long, and numbers past a double, in every format that
 * states them: the rules see saturated products (never a zero or wrapped divisor) and a
 * non-finite number is a finding at the value, never an exception.
 */
class HostileNumbersTest {

    private static final String P62 = "4611686018427387904";

    private static String sample(String name) throws IOException {
        return Files.readString(Path.of("../samples/sound", name));
    }

    private static List<String> lint(SourceFile... files) {
        List<String> out = new ArrayList<>();
        CpuBudget.ofSeconds(60).run(() -> {
            for (Finding f : new Linter().lint(List.of(files)).findings()) {
                out.add(f.span().file() + ":" + f.span().startLine() + ":" + f.span().startColumn() + " " + f.ruleId() + " " + f.message());
            }
        });
        return out;
    }

    private static void hasFinding(List<String> out, String prefix) {
        assertTrue(out.stream().anyMatch(s -> s.startsWith(prefix)), prefix + " in " + out);
    }

    @Test
    void nativeYaml() throws IOException {
        SourceFile pod = SourceFile.of("h100-pod.yaml", sample("h100-pod.yaml"));
        String job = sample("llama3-70b.yaml");
        lint(pod, SourceFile.of("j.yaml", job.replace("  cp: 1\n", "  cp: 1\n  ep: " + P62 + "\n")
                .replace("  kv_heads: 8\n", "  kv_heads: 8\n  experts: 8\n")));
        lint(pod, SourceFile.of("j.yaml", job.replace("  dp: 1\n", "  dp: " + P62 + "\n").replace("micro_batch_size: 1", "micro_batch_size: 4")));
        lint(pod, SourceFile.of("j.yaml", job.replace("  pp: 2\n", "  pp: 17179869184\n  virtual_pp: 1073741824\n")));
        lint(pod, SourceFile.of("j.yaml", job.replace("  cp: 1\n", "  cp: " + P62 + "\n").replace("  kv_heads: 8\n", "  kv_heads: 8\n  seq_length: 4096\n")));
        hasFinding(lint(pod, SourceFile.of("j.yaml", job.replace("parameters: 70B", "parameters: 1e400"))), "j.yaml:8:15 SYN002");
        hasFinding(lint(pod, SourceFile.of("j.yaml", job.replace("400 Gb/s", "1e308 Tb/s"))), "j.yaml:26:23 SYN002");
    }

    @Test
    void dsl() throws IOException {
        String topo = sample("a100-pcie.topo");
        lint(SourceFile.of("c.topo", topo.replace("tp = 2  pp = 1  dp = 16", "tp = 2  pp = 1  dp = " + P62 + "  ep = " + P62)));
        lint(SourceFile.of("c.topo", topo.replace("pp = 1", "pp = 17179869184  virtual_pp = 1073741824")));
        hasFinding(lint(SourceFile.of("c.topo", topo.replace("parameters = 7.2B", "parameters = 1e400"))), "c.topo:26:30 SYN002");
    }

    /** A 3 MB integer literal: one finding at the literal, a short message, read in linear time (was 235 s). */
    @Test
    @org.junit.jupiter.api.Timeout(20)
    void aThreeMegabyteLiteralIsANumberTooLong() throws IOException {
        String topo = sample("a100-pcie.topo");
        String big = "9".repeat(3_000_000);
        List<String> out = lint(SourceFile.of("c.topo", topo.replace("    count = 4\n", "    count = " + big + "\n")
                .replace("bandwidth = 600 GB/s", "bandwidth = " + big + " GB/s").replace("parameters = 7.2B", "parameters = " + big + "B")));
        String expected = "number too long: '" + "9".repeat(60) + "…' has %d characters; gpulint reads numbers and "
                + "quantities of at most 256 characters.";
        hasFinding(out, "c.topo:15:13 SYN002 " + expected.formatted(3_000_000));
        hasFinding(out, "c.topo:17:58 SYN002 " + expected.formatted(3_000_005));
        hasFinding(out, "c.topo:26:30 SYN002 'parameters': " + expected.formatted(3_000_001));
        assertTrue(out.stream().allMatch(s -> s.length() < 2_000), "messages stay short");
    }

    @Test
    void nemoAndPyTorchJob() throws IOException {
        String nemo = sample("nemo-gpt3-20b.yaml");
        lint(SourceFile.of("nemo.yaml", nemo.replace("pipeline_model_parallel_size: 2", "pipeline_model_parallel_size: 17179869184")
                .replace("virtual_pipeline_model_parallel_size: null", "virtual_pipeline_model_parallel_size: 1073741824")));
        lint(SourceFile.of("nemo.yaml", nemo.replace("micro_batch_size: 2", "micro_batch_size: " + P62)
                .replace("tensor_model_parallel_size: 4", "tensor_model_parallel_size: " + P62)
                .replace("  num_layers: 44\n", "  num_layers: 44\n  expert_model_parallel_size: " + P62 + "\n  num_moe_experts: 8\n")));
        lint(SourceFile.of("nemo.yaml", nemo.replace("num_layers: 44", "num_layers: 1e400").replace("global_batch_size: 256", "global_batch_size: 1e400")));
        SourceFile pod = SourceFile.of("h100-pod.yaml", sample("h100-pod.yaml"));
        String pj = sample("pytorchjob-llama.yaml");
        lint(pod, SourceFile.of("pj.yaml", pj.replace("--tensor-model-parallel-size=8\n", "--tensor-model-parallel-size=" + P62 + "\n"
                + "                - --pipeline-model-parallel-size=17179869184\n"
                + "                - --num-layers-per-virtual-pipeline-stage=1\n"
                + "                - --expert-model-parallel-size=" + P62 + "\n"
                + "                - --micro-batch-size=" + P62 + "\n"
                + "                - --global-batch-size=1e400\n")));
    }

    @Test
    void deepSpeedProductsDoNotWrapToZero() {
        lint(SourceFile.of("ds_config.json", """
                { "train_batch_size": 512, "train_micro_batch_size_per_gpu": 4294967296,
                  "gradient_accumulation_steps": 4294967296 }
                """));
        lint(SourceFile.of("ds_config.json", """
                { "train_batch_size": 1e400, "train_micro_batch_size_per_gpu": 1e400, "gradient_accumulation_steps": 2 }
                """));
    }
}
