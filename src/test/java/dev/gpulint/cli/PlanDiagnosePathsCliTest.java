package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.diagnose.Fixtures;
import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `plan -f json` and `diagnose -f json` are machine reports like JSON, SARIF, JUnit and GitLab: they name files (the
 * evidence lines, the sentences that cite them) from the project root, so a run from the repository's top and one from
 * a sub-folder give the same bytes. The text reports keep the paths as given, for the person reading them.
 */
class PlanDiagnosePathsCliTest {

    @AfterEach
    void restore() {
        Main.workingDir = Path.of("");
    }

    private static PlanCli.Run runIn(Path cwd, String... args) {
        Main.workingDir = cwd;
        return PlanCli.run(args);
    }

    private static Path repo(Path dir) throws IOException {
        Files.createDirectories(dir.resolve(".git"));
        String[] c = Fixtures.healthyBut("train.nccl.log", Fixtures.ncclLog("Socket", false, null));
        c[9] = Fixtures.allReduce(2.9);
        Fixtures.project(dir.resolve("incident"), Fixtures.cluster("infiniband", "", true), c);
        return dir;
    }

    @Test
    void diagnoseJsonNamesItsEvidenceFromTheProjectRootFromAnyFolder(@TempDir Path dir) throws IOException {
        Path repo = repo(dir);
        PlanCli.Run top = runIn(repo, "diagnose", "-f", "json", "incident");
        PlanCli.Run sub = runIn(repo.resolve("incident"), "diagnose", "-f", "json", ".");
        PlanCli.Run abs = runIn(repo.resolve("incident/evidence"), "diagnose", "-f", "json", repo.resolve("incident").toString());
        assertEquals(1, top.code(), top.err() + top.out());
        assertTrue(top.out().contains("\"evidence\" : \"incident/evidence/train.nccl.log:4\""), top.out());
        assertEquals(top.out(), sub.out());
        assertEquals(top.out(), abs.out());
        assertFalse(top.out().contains(repo.toString()), "no absolute path of the checkout: " + top.out());
        // the text report names files as they were given, relative to the working folder
        assertTrue(runIn(repo, "diagnose", "incident").out().contains("  incident/evidence/train.nccl.log:4"));
        assertTrue(runIn(repo.resolve("incident"), "diagnose", ".").out().contains("  evidence/train.nccl.log:4"));
    }

    @Test
    void planJsonIsTheSameBytesFromAnyFolder(@TempDir Path dir) throws IOException {
        Path repo = repo(dir);
        PlanCli.Run top = runIn(repo, "plan", "-f", "json", "incident");
        PlanCli.Run sub = runIn(repo.resolve("incident"), "plan", "-f", "json", ".");
        PlanCli.Run abs = runIn(repo.resolve("incident/evidence"), "plan", "-f", "json", repo.resolve("incident").toString());
        assertEquals(top.out(), sub.out(), top.err());
        assertEquals(top.out(), abs.out());
        assertFalse(top.out().contains(repo.toString()), "no absolute path of the checkout: " + top.out());
    }
}
