package dev.gpulint.config;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Finding;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.gpulint.testing.CpuBudget;

/** A hostile .gpulint.yaml: every problem is a finding at its place, never an exception. */
class ConfigHostileTest {

    @TempDir Path dir;

    private List<String> problems(String text) throws IOException {
        Path p = dir.resolve(Config.NAME);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        Config c = CpuBudget.ofSeconds(20).run(() -> Config.load(p, "cfg.yaml"));
        return c.problems().stream().map(f -> f.span() + " " + f.ruleId() + " " + f.message()).toList();
    }

    private static void has(List<String> out, String prefix) {
        assertTrue(out.stream().anyMatch(s -> s.startsWith(prefix)), prefix + " in " + out);
    }

    @Test
    void deepNesting() throws IOException {
        has(problems("include: " + "[".repeat(20_000) + "]".repeat(20_000) + "\n"), "cfg.yaml:1:266 SYN001");
        List<String> dashes = problems("include:\n  " + "- ".repeat(200_000) + "x\n");
        assertTrue(dashes.stream().anyMatch(s -> s.contains("SYN001") || s.contains("SYN002")), dashes.toString());
    }

    @Test
    void badGlobsAreFindingsAtTheValue() throws IOException {
        has(problems("exclude:\n  - \"[a-\"\n"), "cfg.yaml:2:5 SYN002 '[a-' in 'exclude' is not a valid glob");
        has(problems("include: \"{a,\"\n"), "cfg.yaml:1:10 SYN002 '{a,' in 'include' is not a valid glob");
        has(problems("job_clusters:\n  - { files: \"{a,\", cluster: c }\n"), "cfg.yaml:2:14 SYN002 '{a,' in 'job_clusters' is not a valid glob");
    }

    @Test
    void duplicateKeys() throws IOException {
        has(problems("exclude: [a]\nexclude: [b]\n"), "cfg.yaml:2:1 SYN002 key 'exclude' appears twice");
    }

    @Test
    void nonPositiveCatalogFigures() throws IOException {
        has(problems("catalog:\n  gpus:\n    - { name: X1, family: x, form: sxm, memory: -80 GiB, nvlink_generation: 0, source: me }\n"),
                "cfg.yaml:1:1 SYN002 the catalog of cfg.yaml: catalog GPU X1: memory -80 GiB must be positive");
    }
}
