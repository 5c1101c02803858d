package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The project root, not the working directory, anchors what must not move: baselines and the machine-read
 * reports (JSON, SARIF, GitLab, JUnit) name files relative to it (the folder of .gpulint.yaml, else the
 * git top level, else the folder the linted paths have in common), and the configuration is found from the linted
 * paths upwards. Text output keeps paths as given (relative to the working directory), as ruff and eslint do.
 */
class ProjectRootCliTest {

    @AfterEach
    void restore() { Main.workingDir = Path.of(""); }

    /** RoCE without PFC (NET001, error) and without ECN (NET002, warning). */
    static final String ROCE = "kind: cluster\nname: lab\nfabric: { type: roce }\nnode_groups:\n"
            + "  - { name: g, count: 1, gpu: { model: H100-SXM5-80GB, count: 8 } }\n";

    private static PlanCli.Run runIn(Path cwd, String... args) {
        Main.workingDir = cwd;
        return PlanCli.run(args);
    }

    @Test
    void aBaselineWrittenAtTheRootHoldsInASubFolder(@TempDir Path repo) throws IOException {
        Files.createDirectories(repo.resolve(".git"));
        CliTest.write(repo, "samples/c.yaml", ROCE);
        PlanCli.Run write = runIn(repo, "--write-baseline", "gpulint-baseline.sarif", "samples/");
        assertEquals(1, write.code(), write.out());
        assertTrue(write.out().contains("samples/c.yaml:3:17: error: cluster 'lab' runs RoCE"), write.out());

        PlanCli.Run sub = runIn(repo.resolve("samples"), "--baseline", "../gpulint-baseline.sarif", ".");
        assertEquals(0, sub.code(), sub.out());
        assertEquals("0 errors, 0 warnings, 0 notes in 1 file (2 in the baseline)\n", sub.out());
        // a new finding is still new
        CliTest.write(repo, "samples/c.yaml", ROCE.replace("count: 1, gpu", "count: 1, nvlink: { switch: true }, gpu")
                .replace("H100-SXM5-80GB", "L40S"));
        PlanCli.Run edited = runIn(repo.resolve("samples"), "--baseline", "../gpulint-baseline.sarif", "c.yaml");
        assertTrue(edited.out().contains("c.yaml:5:") && edited.out().contains("[HW002]"), edited.out());
        assertFalse(edited.out().contains("[NET001]"), edited.out());
    }

    @Test
    void sarifPathsAreRelativeToTheProjectRootStatedInOriginalUriBaseIds(@TempDir Path repo) throws IOException {
        Files.createDirectories(repo.resolve(".git"));
        CliTest.write(repo, "samples/c.yaml", ROCE);
        String fromTop = runIn(repo, "-f", "sarif", "samples/c.yaml").out();
        String fromSub = runIn(repo.resolve("samples"), "-f", "sarif", "c.yaml").out();
        assertEquals(fromTop, fromSub, "the same SARIF from every working directory");
        String root = repo.toAbsolutePath().normalize().toUri().toString();
        assertTrue(root.endsWith("/"), root);
        assertTrue(Pattern.compile("\"originalUriBaseIds\" : \\{\\s*\"%SRCROOT%\" : \\{\\s*\"uri\" : \"" + Pattern.quote(root) + "\"")
                .matcher(fromSub).find(), fromSub);
        assertTrue(Pattern.compile("\"uri\" : \"samples/c.yaml\",\\s*\"uriBaseId\" : \"%SRCROOT%\"").matcher(fromSub).find(), fromSub);
        // JSON, fingerprints and file paths alike, is the same bytes from every working directory, its paths from the root
        String jsonTop = runIn(repo, "-f", "json", "samples/c.yaml").out();
        String jsonSub = runIn(repo.resolve("samples"), "-f", "json", "c.yaml").out();
        assertEquals(jsonTop, jsonSub);
        assertTrue(jsonSub.contains("\"file\" : \"samples/c.yaml\""), jsonSub);
        // text keeps the path as written, relative to the working directory
        assertTrue(runIn(repo.resolve("samples"), "c.yaml").out().startsWith("c.yaml:3:17: error:"));
    }

    @Test
    void theConfigurationFolderIsTheRootAndIsFoundFromTheLintedPaths(@TempDir Path tmp) throws IOException {
        Path project = tmp.resolve("project");
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        CliTest.write(project, ".gpulint.yaml", "rules:\n  NET002: \"off\"\n");
        CliTest.write(project, "infra/pods/c.yaml", ROCE);
        PlanCli.Run r = runIn(elsewhere, "-f", "sarif", project.resolve("infra/pods").toString());
        assertFalse(r.out().contains("\"ruleId\" : \"NET002\""), "the configuration above the linted path applies: " + r.out());
        assertTrue(r.out().contains("\"ruleId\" : \"NET001\""), r.out());
        assertTrue(r.out().contains("\"uri\" : \"" + project.toAbsolutePath().normalize().toUri() + "\""), r.out());
        assertTrue(Pattern.compile("\"uri\" : \"infra/pods/c.yaml\",\\s*\"uriBaseId\" : \"%SRCROOT%\"").matcher(r.out()).find(), r.out());
        // relative paths too, and the text report names the file as given
        PlanCli.Run text = runIn(elsewhere, "../project/infra/pods/c.yaml");
        assertTrue(text.out().startsWith("../project/infra/pods/c.yaml:3:17: error: cluster 'lab' runs RoCE (fabric type roce) "
                + "but states no PFC"), text.out());
        assertFalse(text.out().contains("[NET002]"), text.out());
    }

    @Test
    void aMissingRulePathIsAFindingAtTheConfigValueAndTheRestRuns(@TempDir Path project) throws IOException {
        CliTest.write(project, ".gpulint.yaml", "rule_paths: [missing-rules]\n");
        CliTest.write(project, "c.yaml", ROCE);
        PlanCli.Run r = runIn(project, "c.yaml");
        assertEquals(2, r.code(), r.out());
        assertTrue(r.out().contains(".gpulint.yaml:1:14: error: no such folder of rules: 'missing-rules'; its rules were not run. [TOOL001]"),
                r.out());
        assertTrue(r.out().contains("  help: for a failed stage, report it with the files linted; for a team's rule, fix the rule the "
                + "message names; for the configuration or the rules folder, fix the path or its permissions; see `gpulint explain TOOL001`"), r.out());
        assertTrue(r.out().contains("c.yaml:3:17: error: cluster 'lab' runs RoCE"), "the built-in rules still run: " + r.out());
    }

    @Test
    void anUnreadableRulePathIsAFindingAtTheConfigValueAndTheRestRuns(@TempDir Path project) throws IOException {
        Path locked = Files.createDirectories(project.resolve("locked-rules/sub"));
        Path unreadable = locked;
        if (!"root".equals(System.getProperty("user.name"))) {
            Files.setPosixFilePermissions(locked, java.nio.file.attribute.PosixFilePermissions.fromString("---------"));
        } else {
            // root reads every folder it owns; /proc/1/map_files needs CAP_SYS_ADMIN, which a container's root lacks
            unreadable = Path.of("/proc/1/map_files");
            boolean denied;
            try (var s = Files.list(unreadable)) {
                denied = s.count() < 0;
            } catch (IOException e) {
                denied = e instanceof java.nio.file.AccessDeniedException;
            } catch (java.io.UncheckedIOException e) {
                denied = e.getCause() instanceof java.nio.file.AccessDeniedException;
            }
            assumeTrue(denied, "no folder here that this user cannot read");
        }
        try {
            TeamRule.teamRule(project.resolve("team-rules"));
            CliTest.write(project, ".gpulint.yaml", "rule_paths:\n  - " + unreadable + "\n  - team-rules\n");
            CliTest.write(project, "job.yaml", "kind: training_job\nname: big\nnodes: 4\ngpus_per_node: 8\nparallelism: { tp: 8 }\n");
            PlanCli.Run r = runIn(project, "job.yaml");
            assertEquals(2, r.code(), r.out());
            String shown = unreadable.startsWith(project) ? project.relativize(unreadable).toString() : unreadable.toString();
            assertTrue(r.out().contains(".gpulint.yaml:2:5: error: cannot read the rules folder '" + shown + "'"), r.out());
            assertTrue(r.out().contains(": permission denied; its rules were not run. [TOOL001]"), r.out());
            assertTrue(r.out().contains("job.yaml:3:8: warning: job 'big' asks for 4 nodes. [TEAM001]"), "the other folder's rules run: " + r.out());
            assertFalse(r.out().contains("Exception") || r.err().contains("Exception"), r.out() + r.err());
        } finally {
            if (Files.exists(locked)) {
                Files.setPosixFilePermissions(locked, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
            }
        }
    }

    /** A job whose cluster is in another file: its findings name both files, in messages and related places. */
    static final String JOB = "kind: training_job\nname: j\ncluster: lab\nnodes: 1\nmodel: { preset: llama2-7b }\n"
            + "parallelism: { tp: 16, pp: 1 }\n";

    @Test
    void machineReportsAreTheSameBytesFromEveryWorkingFolderWithoutGitOrConfiguration(@TempDir Path tmp) throws IOException {
        // no .git, no .gpulint.yaml: the root is the folder the linted paths have in common, never the working folder
        for (Path d = tmp; d != null; d = d.getParent()) assumeTrue(!Files.exists(d.resolve(".git")), "a git top level above " + tmp);
        Path project = tmp.resolve("proj");
        CliTest.write(project, "clusters/c.yaml", ROCE);
        CliTest.write(project, "jobs/j.yaml", JOB);
        Files.createDirectories(tmp.resolve("elsewhere"));
        String abs = project.toString();
        for (String format : new String[] {"json", "sarif", "gitlab", "junit"}) {
            String inside = runIn(project, "-f", format, abs).out();
            String sub = runIn(project.resolve("jobs"), "-f", format, abs).out();
            String above = runIn(tmp, "-f", format, abs).out();
            String beside = runIn(tmp.resolve("elsewhere"), "-f", format, abs).out();
            assertTrue(inside.contains("j.yaml"), format + ": " + inside);
            assertEquals(inside, sub, format + ": from a sub-folder");
            assertEquals(inside, above, format + ": from the folder above");
            assertEquals(inside, beside, format + ": from a folder beside it");
            assertFalse(above.contains("proj/jobs") || above.contains(tmp.toString() + "/proj/jobs"), format + " names files from the root: " + above);
        }
        // JSON names files from the root; text names them as the person at that folder wrote them
        assertTrue(runIn(tmp, "-f", "json", abs).out().contains("\"file\" : \"jobs/j.yaml\""));
        assertTrue(runIn(tmp, abs).out().startsWith("proj/"), runIn(tmp, abs).out());
        assertTrue(runIn(tmp.resolve("elsewhere"), abs).out().startsWith(abs + "/"));
    }

    @Test
    void aBaselineWrittenInOneWorkingFolderHoldsInAnother(@TempDir Path tmp) throws IOException {
        Path project = tmp.resolve("proj");
        CliTest.write(project, "clusters/c.yaml", ROCE);
        CliTest.write(project, "jobs/j.yaml", JOB);
        Files.createDirectories(tmp.resolve("elsewhere"));
        String abs = project.toString(), baseline = tmp.resolve("baseline.sarif").toString();
        PlanCli.Run write = runIn(tmp, "--write-baseline", baseline, abs);
        assertEquals(1, write.code(), write.out());
        PlanCli.Run other = runIn(tmp.resolve("elsewhere"), "--baseline", baseline, abs);
        assertEquals(0, other.code(), other.out());
        assertTrue(other.out().startsWith("0 errors, 0 warnings, 0 notes in 2 files ("), other.out());
        PlanCli.Run inside = runIn(project.resolve("jobs"), "--baseline", baseline, abs);
        assertEquals(other.out(), inside.out());
    }
}
