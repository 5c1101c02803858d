package dev.gpulint.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.core.LintResult;
import dev.gpulint.lint.Linter;
import dev.gpulint.read.SourceFile;
import dev.gpulint.meta.RuleCatalog;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Golden files for the text, JSON, SARIF, GitHub, JUnit and GitLab renderers: the same
 * result, byte for byte. Regenerate with -Dgpulint.updateGolden=true and
 * review the diff.
 */
class GoldenReportTest {

    private static final Path GOLDEN = Path.of("test", "resources", "golden");

    static LintResult result() {
        return new Linter().lint(List.of(
                SourceFile.of("clusters/pod.yaml", """
                        kind: cluster
                        name: pod
                        fabric: { type: roce, roce: { pfc: { enabled: true } } }
                        node_groups:
                          - { name: dgx, count: 2, gpu: { model: H100-SXM5-80GB, count: 8 }, nvlink: { switch: true } }
                        """),
                SourceFile.of("jobs/job.topo", """
                        training_job "j" {
                          cluster = "pod"
                          nodes = 2
                          parallelism { tp = 16 }
                          env { NCCL_ALGO = "Ring" }
                        }
                        """),
                SourceFile.of("jobs/broken.yaml", "kind: training_job\nname: [\n")));
    }

    private static void check(String name, Renderer r) throws IOException {
        StringWriter w = new StringWriter();
        r.render(result(), w);
        String actual = w.toString().replace(Path.of("").toAbsolutePath().toUri().toString(), "file:///SRCROOT/");
        Path g = GOLDEN.resolve(name);
        if (Boolean.getBoolean("gpulint.updateGolden")) Files.writeString(g, actual, StandardCharsets.UTF_8);
        assertEquals(Files.readString(g, StandardCharsets.UTF_8), actual, "golden " + g);
    }

    @Test
    void text() throws IOException { check("report.txt", new TextRenderer(RuleCatalog.builtIn(), false)); }

    @Test
    void json() throws IOException { check("report.json", new JsonRenderer(RuleCatalog.builtIn(), "0.1.0")); }

    @Test
    void sarif() throws IOException { check("report.sarif", new SarifRenderer(RuleCatalog.builtIn(), "0.1.0", Path.of(""))); }

    @Test
    void github() throws IOException { check("report.github", new GithubRenderer(RuleCatalog.builtIn())); }

    @Test
    void junit() throws IOException { check("report.junit.xml", new JunitRenderer(RuleCatalog.builtIn())); }

    @Test
    void gitlab() throws IOException { check("report.gitlab.json", new GitlabRenderer()); }
}
