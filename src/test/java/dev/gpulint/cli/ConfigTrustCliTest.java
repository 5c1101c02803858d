package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A .gpulint.yaml planted by another user must not run its rules as whoever lints a file below it (issue 40, item 1;
 * SECURITY.md): the upward search stops below a folder of someone else and at the repository's top; a configuration
 * or rules folder of another owner, or that others may write, is refused with a TOOL001 finding saying how to allow
 * it; rules of a configuration found by searching away from the working folder need consent (--config, the allow
 * list). Files of another user are made with chown to a numeric uid, which needs root.
 */
class ConfigTrustCliTest {

    /** A uid no account here has: "another user". */
    static final int OTHER = 4242;

    @TempDir Path tmp;
    private Path allowList;

    @BeforeEach
    void ownAllowList() {
        allowList = tmp.resolve("allow/trusted-folders");
        System.setProperty("gpulint.trusted-folders", allowList.toString());
    }

    @AfterEach
    void restore() {
        System.clearProperty("gpulint.trusted-folders");
        Main.workingDir = Path.of("");
    }

    static void chown(Path p, int uid) throws IOException {
        assumeTrue(canChown(), "making a file of another user needs root (chown); this test runs as "
                + System.getProperty("user.name"));
        Files.setAttribute(p, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
    }

    static boolean canChown() {
        try {
            Path probe = Files.createTempFile("gpulint-chown-", ".probe");
            try {
                Files.setAttribute(probe, "unix:uid", OTHER);
                return true;
            } finally {
                Files.delete(probe);
            }
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** An evil team rule: TEAM001 on every multi-node job, standing for code the planter wants run. */
    private static void plantRules(Path folder) throws IOException {
        TeamRule.teamRule(folder);
    }

    private static final String JOB = "kind: training_job\nname: big\nnodes: 4\ngpus_per_node: 8\nparallelism: { tp: 8 }\n";

    private PlanCli.Run runIn(Path cwd, String... args) {
        Main.workingDir = cwd;
        return PlanCli.run(args);
    }

    @Test
    void aConfigurationAboveAFolderOfAnotherUserIsNotFound() throws IOException {
        // /tmp/…/shared is the planter's (a shared scratch folder); the victim's own folder is below it
        Path shared = Files.createDirectories(tmp.resolve("shared"));
        plantRules(shared.resolve("evil"));
        CliTest.write(shared, ".gpulint.yaml", "rule_paths: [evil]\n");
        Path mine = Files.createDirectories(shared.resolve("mine"));
        CliTest.write(mine, "job.yaml", JOB);
        for (Path p : new Path[] {shared, shared.resolve(".gpulint.yaml"), shared.resolve("evil"),
                shared.resolve("evil/TEAM001.drl"), shared.resolve("evil/TEAM001.yaml")}) chown(p, OTHER);
        PlanCli.Run r = runIn(mine, "job.yaml");
        assertFalse(r.out().contains("TEAM001"), "the planted rule ran: " + r.out());
        assertFalse(r.out().contains("TOOL001"), "nothing was found, nothing refused: " + r.out());
        assertTrue(r.out().endsWith(" in 1 file\n"), "the job was linted: " + r.out());
    }

    @Test
    void theSearchStopsAtTheRepositoryTop() throws IOException {
        plantRules(tmp.resolve("evil"));
        CliTest.write(tmp, ".gpulint.yaml", "rule_paths: [evil]\n");
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        Files.createDirectories(repo.resolve(".git"));
        CliTest.write(repo, "job.yaml", JOB);
        PlanCli.Run r = runIn(repo, "job.yaml");
        assertFalse(r.out().contains("TEAM001"), "a configuration above the repository's top is not the project's: " + r.out());
        assertTrue(r.out().endsWith(" in 1 file\n"), r.out());
    }

    @Test
    void aConfigurationOfAnotherUserIsRefusedWithAFindingUnlessAllowed() throws IOException {
        Path theirs = Files.createDirectories(tmp.resolve("theirs"));
        plantRules(theirs.resolve("evil"));
        CliTest.write(theirs, ".gpulint.yaml", "rule_paths: [evil]\n");
        CliTest.write(theirs, "job.yaml", JOB);
        chown(theirs.resolve(".gpulint.yaml"), OTHER);
        PlanCli.Run r = runIn(theirs, "job.yaml");
        assertEquals(2, r.code(), r.out());
        assertFalse(r.out().contains("TEAM001"), "the planted rule ran: " + r.out());
        assertTrue(r.out().contains(".gpulint.yaml:1:1: error: the configuration '.gpulint.yaml' was not used: it belongs to uid 4242, "
                + "not to you, so another user could make gpulint run their rules as you; if you trust it, add its folder to "
                + allowList + " (one folder a line), or make it yours and writable by you alone (chown, chmod go-w). [TOOL001]"), r.out());

        // the user allows the folder: the configuration and its rules are used
        CliTest.write(allowList.getParent(), "trusted-folders", "# folders I trust\n" + theirs + "\n");
        PlanCli.Run allowed = runIn(theirs, "job.yaml");
        assertTrue(allowed.out().contains("job.yaml:3:8: warning: job 'big' asks for 4 nodes. [TEAM001]"), allowed.out());
        assertFalse(allowed.out().contains("TOOL001"), allowed.out());
    }

    @Test
    void aConfigurationOthersMayWriteIsRefused() throws IOException {
        Path p = Files.createDirectories(tmp.resolve("p"));
        plantRules(p.resolve("team"));
        Path cfg = CliTest.write(p, ".gpulint.yaml", "rule_paths: [team]\n");
        CliTest.write(p, "job.yaml", JOB);
        assumeTrue(Files.getFileAttributeView(cfg, java.nio.file.attribute.PosixFileAttributeView.class) != null,
                "this file system has no POSIX permissions");
        Files.setPosixFilePermissions(cfg, PosixFilePermissions.fromString("rw-rw-rw-"));
        PlanCli.Run r = runIn(p, "job.yaml");
        assertTrue(r.out().contains("the configuration '.gpulint.yaml' was not used: every user may write it (rw-rw-rw-)"), r.out());
        assertFalse(r.out().contains("TEAM001"), r.out());
    }

    @Test
    void aRulesFolderOfAnotherUserIsNotLoadedAndTheRestOfTheConfigurationApplies() throws IOException {
        Path p = Files.createDirectories(tmp.resolve("p"));
        plantRules(p.resolve("team"));
        CliTest.write(p, ".gpulint.yaml", "rule_paths: [team]\nrules: { PAR002: off }\n");
        CliTest.write(p, "job.yaml", "kind: training_job\nname: big\nnodes: 4\ngpus_per_node: 8\nparallelism: { tp: 16 }\n");
        chown(p.resolve("team/TEAM001.drl"), OTHER);
        PlanCli.Run r = runIn(p, "job.yaml");
        assertEquals(2, r.code(), r.out());
        assertFalse(r.out().contains("TEAM001]"), r.out());
        assertTrue(r.out().contains(".gpulint.yaml:1:14: error: the rules folder 'team' of '.gpulint.yaml' was not loaded: TEAM001.drl in it: "
                + "it belongs to uid 4242, not to you, so another user could make gpulint run their rules as you"), r.out());
        assertFalse(r.out().contains("[PAR002]"), "the configuration's other settings still apply: " + r.out());
    }

    @Test
    void rulesOfAConfigurationFoundAwayFromTheWorkingFolderNeedConsent() throws IOException {
        Path p = Files.createDirectories(tmp.resolve("downloaded"));
        plantRules(p.resolve("team"));
        CliTest.write(p, ".gpulint.yaml", "rule_paths: [team]\n");
        Path job = CliTest.write(p, "job.yaml", JOB);
        Path elsewhere = Files.createDirectories(tmp.resolve("home"));
        PlanCli.Run r = runIn(elsewhere, job.toString());
        assertEquals(2, r.code(), r.out());
        assertFalse(r.out().contains("TEAM001]"), "rules found away from the working folder ran: " + r.out());
        assertTrue(r.out().contains(":1:14: error: the rules of '" + p.resolve(".gpulint.yaml") + "' (rule_paths) were not run: the "
                + "configuration was found by searching upwards from the linted files, outside the folder gpulint runs in, and rules are "
                + "Java code that runs as you; run gpulint from " + p + " (or below it), name it with --config; if you trust it, add its "
                + "folder to " + allowList + " (one folder a line). [TOOL001]"), r.out());

        // consent: run from its folder, name it, or list it
        assertTrue(runIn(p, "job.yaml").out().contains("[TEAM001]"));
        assertTrue(runIn(elsewhere, "--config", p.resolve(".gpulint.yaml").toString(), job.toString()).out().contains("[TEAM001]"));
        CliTest.write(allowList.getParent(), "trusted-folders", p + "\n");
        assertTrue(runIn(elsewhere, job.toString()).out().contains("[TEAM001]"));
    }

    @Test
    void anAllowListOthersMayWriteAllowsNothing() throws IOException {
        Path theirs = Files.createDirectories(tmp.resolve("theirs"));
        CliTest.write(theirs, ".gpulint.yaml", "rules: { PAR002: off }\n");
        CliTest.write(theirs, "job.yaml", JOB);
        chown(theirs.resolve(".gpulint.yaml"), OTHER);
        Path list = CliTest.write(allowList.getParent(), "trusted-folders", "*\n");
        Files.setPosixFilePermissions(list, PosixFilePermissions.fromString("rw-rw-rw-"));
        assertTrue(runIn(theirs, "job.yaml").out().contains("was not used: it belongs to uid 4242"));
        Files.setPosixFilePermissions(list, PosixFilePermissions.fromString("rw-r--r--"));
        assertFalse(runIn(theirs, "job.yaml").out().contains("TOOL001"), "'*' allows every folder");
    }
}
