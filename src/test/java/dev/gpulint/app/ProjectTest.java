package dev.gpulint.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Fingerprints;
import dev.gpulint.core.LintResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The set-up the CLI and the Maven plugin share: configuration, discovery, user rules, rule settings
 * and baseline, on a project in a temporary folder used as the base (as the Maven plugin runs it).
 */
class ProjectTest {

    @TempDir Path dir;

    /** RoCE without PFC (NET001, error) and without ECN (NET002, warning). */
    static final String ROCE = "kind: cluster\nname: lab\nfabric: { type: roce }\nnode_groups:\n"
            + "  - { name: g, count: 1, gpu: { model: H100-SXM5-80GB, count: 8 } }\n";
    static final String BIG_JOB = "kind: training_job\nname: big\nnodes: 4\ngpus_per_node: 8\nparallelism: { tp: 8 }\n";
    static final List<String> ALL = List.of("**/*.topo", "**/*.yaml", "**/*.yml", "**/*.json", "**/*.csv");

    private Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    private static List<String> lines(LintResult r) {
        return r.findings().stream()
                .map(f -> f.span() + " " + f.level().id() + " " + f.ruleId() + (f.suppressed() ? " suppressed" : "")).toList();
    }

    private void teamRule(String folder) throws IOException {
        write(folder + "/TEAM001.drl", """
                package team;
                import dev.gpulint.facts.JobFact;
                global dev.gpulint.engine.FindingSink sink;
                rule "TEAM001" @id("TEAM001")
                when $j : JobFact( nodes > 1 )
                then sink.report("TEAM001", $j.getNodesSpan(), $j.identity(), "job '" + $j.getName() + "' asks for " + $j.getNodes() + " nodes");
                end
                """);
        write(folder + "/TEAM001.yaml", "id: TEAM001\nname: single-node-queue\nlevel: warning\ntitle: One node\n"
                + "description: One node only.\nremediation: ask for the multi-node queue\n");
    }

    @Test
    void globsChooseFilesUnderTheBaseAndDisplayPathsAreRelativeToIt() throws IOException {
        write("top.yaml", ROCE.replace("lab", "top"));
        write("infra/c.yaml", ROCE);
        write("infra/notes.txt", "not linted");
        write("target/built.yaml", ROCE.replace("lab", "built"));
        write(".hidden/h.yaml", ROCE.replace("lab", "hidden"));
        write("node_modules/m.yaml", ROCE.replace("lab", "module"));
        write("skip/s.yaml", ROCE.replace("lab", "skipped"));
        LintResult r = new Project(dir).matching(ALL, List.of("skip/**")).lint().result();
        assertEquals(List.of("infra/c.yaml", "top.yaml"), r.files());
        assertEquals(List.of("infra/c.yaml:3:17 error NET001", "infra/c.yaml:3:17 warning NET002",
                "top.yaml:3:17 error NET001", "top.yaml:3:17 warning NET002"), lines(r));
    }

    @Test
    void theNearestConfigurationExcludesIncludesAndSetsLevels() throws IOException {
        write("clusters/pod.yaml", """
                kind: cluster
                name: pod
                fabric: { type: roce }
                node_groups:
                  - { name: g, count: 2, gpu: { model: H100-SXM5-80GB, count: 8 } }
                """);
        write("jobs/job.yaml", "kind: training_job\nname: j\ncluster: pod\nnodes: 2\nparallelism: { tp: 16 }\n");
        write("legacy/old.yaml", "kind: training_job\nname: old\ncluster: gone\n");
        write(".gpulint.yaml", "include: [clusters/]\nexclude: [\"legacy/**\"]\nrules:\n  PAR002: warning\n");
        LintResult r = new Project(dir).matching(List.of("jobs/**", "legacy/**"), List.of()).lint().result();
        assertEquals(List.of("jobs/job.yaml"), r.files(), "legacy/ is excluded, clusters/ is context");
        assertEquals(List.of("jobs/job.yaml:5:20 warning PAR002"), lines(r));
        assertFalse(r.inputFailed());
    }

    @Test
    void anExplicitConfigurationIsResolvedAgainstTheBaseAndItsProblemsAreFindings() throws IOException {
        write("c.yaml", ROCE);
        write(".gpulint.yaml", "rules:\n  NET002: off\n");
        write("conf/strict.yaml", "rules:\n  NET01: off\n  NET002: note\n");
        Project p = new Project(dir).config(Path.of("conf/strict.yaml")).matching(ALL, List.of("conf/**"));
        LintResult r = p.lint().result();
        assertEquals(List.of("c.yaml:3:17 error NET001", "c.yaml:3:17 note NET002", "conf/strict.yaml:2:3 error SYN002"), lines(r));
        Finding syn = r.findings().get(2);
        assertEquals("'NET01' in the rules of conf/strict.yaml is no gpulint rule ID or name; did you mean 'NET001'?", syn.message());
    }

    @Test
    void userRulesComeFromRulePathsAndTheExtraFolderAndJoinTheMetadata() throws IOException {
        write("jobs/big.yaml", BIG_JOB);
        teamRule("team-rules");
        dev.gpulint.lint.RunOutcome plain = new Project(dir).matching(ALL, List.of("team-rules/**")).lint();
        assertEquals(List.of(), lines(plain.result()));
        assertTrue(plain.rules().get("TEAM001").isEmpty());

        dev.gpulint.lint.RunOutcome extra = new Project(dir).rules(Path.of("team-rules")).matching(ALL, List.of("team-rules/**")).lint();
        assertEquals(List.of("jobs/big.yaml:3:8 warning TEAM001"), lines(extra.result()));
        assertEquals("job 'big' asks for 4 nodes.", extra.result().findings().get(0).message());
        assertEquals("single-node-queue", extra.rules().get("TEAM001").orElseThrow().name());

        // from the configuration's rule_paths, with a level set by the user rule's name
        write(".gpulint.yaml", "rule_paths: [team-rules]\nrules:\n  single-node-queue: error\n");
        dev.gpulint.lint.RunOutcome configured = new Project(dir).matching(ALL, List.of("team-rules/**")).lint();
        assertEquals(List.of("jobs/big.yaml:3:8 error TEAM001"), lines(configured.result()));
    }

    @Test
    void aBaselineLeavesOutTheFindingsItHolds() throws IOException {
        write("c.yaml", ROCE);
        LintResult first = new Project(dir).matching(ALL, List.of()).lint().result();
        Finding net001 = first.findings().stream().filter(f -> f.ruleId().equals("NET001")).findFirst().orElseThrow();
        write("base/gpulint.sarif", "{ \"version\": \"2.1.0\", \"runs\": [ { \"results\": [ { \"partialFingerprints\": { \"gpulint/v1\": \""
                + Fingerprints.of(net001) + "\" } } ] } ] }\n");
        LintResult r = new Project(dir).baseline(Path.of("base/gpulint.sarif")).matching(ALL, List.of("base/**")).lint().result();
        assertEquals(List.of("c.yaml:3:17 warning NET002"), lines(r));
        assertEquals(1, r.baselined());
        assertThrows(IOException.class, () -> new Project(dir).baseline(Path.of("missing.sarif")));
    }

    @Test
    void commandLinePathsAreTakenAsGivenWithALimitOnFileSize() throws IOException {
        Path big = write("big.yaml", ROCE + "# padding\n".repeat(200)); // 2128 bytes
        Path small = write("small.yaml", ROCE.replace("lab", "small"));
        LintResult r = new Project(dir).maxFileSize(1024).paths(List.of(big.toString(), small.toString())).lint().result();
        assertEquals(List.of("small.yaml"), r.files());
        assertTrue(r.inputFailed());
        assertEquals("'big.yaml' is 2.078 KiB, more than the 1 KiB gpulint reads per file (manifests are kilobytes); "
                + "exclude it, or raise the limit with --max-file-size.", r.findings().get(0).message());
    }
    /** An editor's buffer stands for its file whatever the form of the path it is keyed by (Project normalises it). */
    @Test
    void aBufferKeyedByANonNormalisedPathStandsForTheFile() throws IOException {
        write("b.yaml", ROCE);
        Project p = new Project(dir).paths(List.of("b.yaml"))
                .buffers(java.util.Map.of(dir.resolve("a/../b.yaml"), "kind: cluster\nname: [lab\n"));
        List<String> found = lines(p.lint().result());
        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).contains("error SYN001"), "the buffer, not the file on disk, is linted: " + found);
    }

    /** A relative buffer path is taken against the base folder, as every other path of a project is. */
    @Test
    void aRelativeBufferPathIsTakenAgainstTheBaseFolder() throws IOException {
        write("b.yaml", ROCE);
        Project p = new Project(dir).paths(List.of("b.yaml")).buffers(java.util.Map.of(Path.of("./b.yaml"), "kind: cluster\nname: [lab\n"));
        List<String> found = lines(p.lint().result());
        assertTrue(found.size() == 1 && found.get(0).contains("error SYN001"), found.toString());
    }
}
