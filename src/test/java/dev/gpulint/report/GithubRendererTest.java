package dev.gpulint.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;
import dev.gpulint.core.LintResult;
import dev.gpulint.core.Span;
import dev.gpulint.meta.RuleCatalog;
import java.io.IOException;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** GitHub workflow commands: an annotation carries the related location and the help, encoded as one command line. */
class GithubRendererTest {

    private static String render(Finding... findings) throws IOException {
        StringWriter w = new StringWriter();
        new GithubRenderer(RuleCatalog.builtIn()).render(new LintResult(List.of(findings), List.of("jobs/j.yaml"), false), w);
        return w.toString();
    }

    @Test
    void theAnnotationKeepsTheFirstRelatedLocationAndTheHelp() throws IOException {
        Finding f = Finding.of("PAR002", new Span("jobs/j.yaml", 4, 7, 4, 9), "training_job:j/parallelism/tp", "tp=16 spans 2 nodes")
                .withLevel(Level.ERROR)
                .withRelated(new Span("clusters/c.yaml", 5, 3, 5, 9), "the NVLink domain is 8 GPUs")
                .withRelated(new Span("clusters/c.yaml", 9, 3, 9, 9), "a second place");
        assertEquals("::error file=jobs/j.yaml,line=4,col=7,endLine=4,endColumn=9,title=PAR002 tp-crosses-node::tp=16 spans 2 nodes."
                + "%0Arelated: clusters/c.yaml:5:3: the NVLink domain is 8 GPUs (and 1 more)"
                + "%0Ahelp: keep tp at most the NVLink domain size and a divisor of it, and put pp or dp across nodes;"
                + " see `gpulint explain PAR002`\n"
                + "gpulint: 1 error, 0 warnings, 0 notes in 1 file\n", render(f));
    }

    @Test
    void lineBreaksAndPercentSignsInsideThePartsCannotForgeLinesOrCommands() throws IOException {
        Finding f = Finding.of("NCCL007", new Span("jobs/j.yaml", 2, 1, 2, 5), "x", "50% of\n::error::forged")
                .withLevel(Level.NOTE)
                .withRelated(new Span("a\r\nb.yaml", 1, 1, 1, 2), "there%0A");
        String out = render(f);
        assertEquals(2, out.split("\n", -1).length - 1, out);
        assertEquals("::notice file=jobs/j.yaml,line=2,col=1,endLine=2,endColumn=5,title=NCCL007 debug-variable-in-production::"
                + "50%25 of\\n::error::forged.%0Arelated: a\\r\\nb.yaml:1:1: there%250A"
                + "%0Ahelp: remove the variable once the problem it worked around is solved; see `gpulint explain NCCL007`",
                out.substring(0, out.indexOf('\n')));
    }

    @Test
    void pathsAreFromTheWorkspaceGitHubAnnotatesNotFromTheWorkingDirectory() throws IOException {
        java.nio.file.Path ws = java.nio.file.Path.of("/checkout").toAbsolutePath();
        String inside = ws.resolve("infra/jobs/j.yaml").toString();
        Finding f = Finding.of("PAR002", new Span(inside, 4, 7, 4, 9), "x", "tp=16 spans 2 nodes").withLevel(Level.ERROR)
                .withRelated(new Span(ws.resolve("infra/c.yaml").toString(), 5, 3, 5, 9), "the NVLink domain is 8 GPUs");
        Finding outside = Finding.of("PAR002", new Span("/elsewhere/k.yaml", 1, 1, 1, 2), "y", "m").withLevel(Level.ERROR);
        StringWriter w = new StringWriter();
        new GithubRenderer(RuleCatalog.builtIn(), false, ws).render(new LintResult(List.of(f, outside), List.of(inside), false), w);
        String[] lines = w.toString().split("\n");
        assertEquals(2, lines.length, w.toString());
        assertEquals(true, lines[0].startsWith("::error file=infra/jobs/j.yaml,line=4,col=7,"), lines[0]);
        assertEquals(true, lines[0].contains("%0Arelated: infra/c.yaml:5:3: "), lines[0]);
        assertEquals(true, lines[1].startsWith("::error file=/elsewhere/k.yaml,line=1,"), "a file outside the workspace keeps its path: " + lines[1]);
    }
}
