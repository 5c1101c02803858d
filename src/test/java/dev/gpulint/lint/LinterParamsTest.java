package dev.gpulint.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.config.Config;
import dev.gpulint.core.Finding;
import dev.gpulint.read.SourceFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** .gpulint.yaml {@code params:} reach the rules through {@link Linter#configure}. */
class LinterParamsTest {

    @TempDir Path dir;

    /** 4.5625B × 16 bytes = 73 GB on an 80 GiB H100: 85% of its memory. */
    private static final String JOB = """
            kind: cluster
            name: c
            node_groups:
              - { name: g, count: 1, gpu: { model: H100-SXM5-80GB, count: 8 } }
            ---
            kind: training_job
            name: j
            cluster: c
            nodes: 1
            model: { parameters: 4.5625B }
            """;

    private List<String> lint(Linter linter) {
        return linter.lint(List.of(SourceFile.of("job.yaml", JOB))).findings().stream()
                .map(f -> f.ruleId() + " " + f.span()).toList();
    }

    private Config config(String text) throws IOException {
        Path p = dir.resolve(Config.NAME);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        Config c = Config.load(p, Config.NAME);
        assertEquals(List.<Finding>of(), c.problems());
        return c;
    }

    @Test
    void theDefaultWarnAtLeaves85PercentQuiet() throws IOException {
        assertEquals(List.of(), lint(new Linter()));
        assertEquals(List.of(), lint(new Linter().configure(config("params:\n  NET003: { budget_seconds: 2 }\n"))));
    }

    @Test
    void aLowerWarnAtFromTheConfigurationFires() throws IOException {
        assertEquals(List.of("MEM002 job.yaml:10:22"), lint(new Linter().configure(config("params:\n  MEM002: { warn_at: 0.8 }\n"))));
    }
}
