package dev.gpulint.lint;

import dev.gpulint.app.Project;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.config.Config;
import dev.gpulint.core.LintResult;
import dev.gpulint.read.SourceFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The project's clusters for jobs whose cluster no linted file defines: lazy, bounded, clusters only, quiet. */
class ProjectClustersTest {

    @TempDir Path dir;

    static final String POD = "kind: cluster\nname: pod\nfabric: { type: roce }\nnode_groups:\n"
            + "  - { name: g, count: 2, gpu: { model: H100-SXM5-80GB, count: 8 } }\n";
    static final String JOB = "kind: training_job\nname: j\ncluster: pod\nnodes: 2\nparallelism: { tp: 16 }\n";

    private Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    private static List<String> lines(LintResult r) {
        return r.findings().stream().map(f -> f.span().file() + ":" + f.span().startLine() + ":" + f.span().startColumn() + " " + f.ruleId()).toList();
    }

    @Test
    void theProjectIsAskedOnlyWhenAReferenceIsUnresolved() {
        List<Set<String>> asked = new ArrayList<>();
        Linter linter = new Linter().clusterSource(names -> { asked.add(names); return List.of(); });
        linter.lint(List.of(SourceFile.of("c.yaml", POD), SourceFile.of("j.yaml", JOB)));
        assertEquals(List.of(), asked, "the cluster is linted: nothing is looked up");
        LintResult alone = linter.lint(List.of(SourceFile.of("j.yaml", JOB.replace("tp: 16", "tp: 8")
                + "---\nkind: training_job\nname: k\ncluster: \"${CLUSTER}\"\n")));
        assertEquals(List.of(Set.of("pod")), asked, "asked once, for the missing name only (a placeholder is no name)");
        assertTrue(lines(alone).contains("j.yaml:3:10 SYN003"), "nothing found: the reference stays unresolved: " + lines(alone));
    }

    @Test
    void onlyTheNamedClusterIsTakenAndItsFileIsNotReported() throws IOException {
        Files.createDirectories(dir.resolve(".git"));
        write("clusters/all.yaml", POD + "---\n" + POD.replace("name: pod", "name: other")
                + "---\nkind: training_job\nname: stray\ncluster: other\nnodes: 9\nparallelism: { tp: 3 }\n");
        write("clusters/later.yaml", POD.replace("count: 2,", "count: 4,"));     // a second definition: the first wins
        write("jobs/j.yaml", JOB);
        LintResult r = new Project(dir).paths(List.of(dir.resolve("jobs/j.yaml").toString())).lint().result();
        assertEquals(List.of("jobs/j.yaml:5:20 PAR002"), lines(r), "no NET001 of the cluster, no finding of the stray job: " + r.findings());
        assertEquals("clusters/all.yaml", r.findings().get(0).related().get(0).span().file());
        assertEquals(List.of("jobs/j.yaml"), r.files());
    }

    @Test
    void theConfigurationsExcludeHoldsAndTheWalkIsBounded() throws IOException {
        write(".gpulint.yaml", "exclude: [\"legacy/**\"]\n");
        write("legacy/pod.yaml", POD);
        write("jobs/j.yaml", JOB);
        LintResult r = new Project(dir).paths(List.of(dir.resolve("jobs/j.yaml").toString())).lint().result();
        assertEquals(List.of("jobs/j.yaml:3:10 SYN003"), lines(r));

        Discovery d = new Discovery(Config.none(), dir);
        assertNull(d.walk(dir, dir, dir.toString(), new ArrayList<>(), 2), "three readable files are more than a limit of 2");
        assertEquals(3, d.walk(dir, dir, dir.toString(), new ArrayList<>(), 3).size());
    }

    @Test
    void aRunOutsideTheProjectRootLooksNothingUp(@TempDir Path elsewhere) throws IOException {
        write("clusters/pod.yaml", POD);
        Path job = write("jobs/j.yaml", JOB);
        // no .git and no configuration: the root is the base folder, and the job lies outside it
        LintResult r = new Project(elsewhere).paths(List.of(job.toString())).lint().result();
        assertTrue(lines(r).contains(job + ":3:10 SYN003"), lines(r).toString());
    }

    @Test
    void aMavenModulesJobFindsItsClusterInASiblingModuleWithoutGit() throws IOException {
        // parent/infra holds the cluster, parent/jobs the job: no .git, no configuration; the plugin runs in jobs/
        write("parent/infra/manifests/pod.yaml", POD);
        write("parent/jobs/manifests/j.yaml", JOB);
        Path module = dir.resolve("parent/jobs");
        LintResult alone = new Project(module).matching(List.of("**/*.yaml"), List.of()).lint().result();
        assertEquals(List.of("manifests/j.yaml:3:10 SYN003"), lines(alone), "without the top-level project the module is all there is");
        LintResult r = new Project(module).top(dir.resolve("parent")).matching(List.of("**/*.yaml"), List.of()).lint().result();
        assertEquals(List.of("manifests/j.yaml:5:20 PAR002"), lines(r), r.findings().toString());
        assertEquals("jobs/manifests/j.yaml", r.paths().underRoot("manifests/j.yaml"));
    }
}
