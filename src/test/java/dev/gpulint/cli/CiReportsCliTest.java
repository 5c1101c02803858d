package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What Jenkins and GitLab need of the JUnit and Code Quality reports: paths relative to the project
 * root (as SARIF's), or to CI_PROJECT_DIR; a classname Jenkins does not split in the file name; one
 * test suite per file the closing line counts.
 */
class CiReportsCliTest {

    @AfterEach
    void restore() {
        Main.workingDir = Path.of("");
        Main.env = System::getenv;
    }

    private static PlanCli.Run runIn(Path cwd, String... args) {
        Main.workingDir = cwd;
        return PlanCli.run(args);
    }

    @Test
    void junitAndGitlabPathsAreRelativeToTheProjectRootFromAnyFolder(@TempDir Path repo) throws IOException {
        Files.createDirectories(repo.resolve(".git"));
        CliTest.write(repo, "infra/c.yaml", ProjectRootCliTest.ROCE);
        String top = runIn(repo, "-f", "junit", "infra/c.yaml").out();
        String sub = runIn(repo.resolve("infra"), "-f", "junit", "c.yaml").out();
        // the suites and cases (the failure's text is the text report's lines, which name files as given)
        assertEquals(structure(top), structure(sub));
        assertTrue(sub.contains("<testsuite name=\"infra/c.yaml\""), sub);
        String gitlab = runIn(repo.resolve("infra"), "-f", "gitlab", "c.yaml").out();
        assertTrue(gitlab.contains("\"path\" : \"infra/c.yaml\""), gitlab);
    }

    /** GitLab matches issues across pipelines by fingerprint: a job started in a sub-folder must not make every issue new. */
    @Test
    void gitlabFingerprintsAreTheSameFromAnyFolderAndAreSarifs(@TempDir Path repo) throws IOException {
        Files.createDirectories(repo.resolve(".git"));
        CliTest.write(repo, "infra/c.yaml", ProjectRootCliTest.ROCE);
        String top = runIn(repo, "-f", "gitlab", "infra/c.yaml").out();
        String sub = runIn(repo.resolve("infra"), "-f", "gitlab", "c.yaml").out();
        assertEquals(top, sub);
        java.util.List<String> fps = matches("\"fingerprint\" : \"([0-9a-f]+)\"", sub);
        assertEquals(2, fps.size(), sub);
        String sarif = runIn(repo.resolve("infra"), "-f", "sarif", "c.yaml").out();
        assertEquals(fps.stream().sorted().toList(), matches("\"gpulint/v1\" : \"([0-9a-f]+)\"", sarif).stream().sorted().toList());
    }

    private static java.util.List<String> matches(String regex, String text) {
        Matcher m = Pattern.compile(regex).matcher(text);
        java.util.List<String> out = new java.util.ArrayList<>();
        while (m.find()) out.add(m.group(1));
        return out;
    }

    private static java.util.List<String> structure(String junit) {
        return junit.lines().filter(l -> l.contains("<testsuite ") || l.contains("<testcase ")).toList();
    }

    @Test
    void ciProjectDirIsTheRootOfGitlabsPaths(@TempDir Path dir) throws IOException {
        Path repo = dir.resolve("checkout");
        Files.createDirectories(repo.resolve("ml/.git"));
        CliTest.write(repo, "ml/infra/c.yaml", ProjectRootCliTest.ROCE);
        Main.env = n -> n.equals("CI_PROJECT_DIR") ? repo.toString() : null;
        String gitlab = runIn(repo.resolve("ml"), "-f", "gitlab", "infra/c.yaml").out();
        assertTrue(gitlab.contains("\"path\" : \"ml/infra/c.yaml\""), gitlab);
        String junit = runIn(repo.resolve("ml"), "-f", "junit", "infra/c.yaml").out();
        assertTrue(junit.contains("<testsuite name=\"ml/infra/c.yaml\""), junit);
    }

    @Test
    void jenkinsSeesTheFileWithItsExtensionAsTheClass(@TempDir Path repo) throws IOException {
        Files.createDirectories(repo.resolve(".git"));
        CliTest.write(repo, "infra/c.yaml", ProjectRootCliTest.ROCE);
        String junit = runIn(repo, "-f", "junit", "infra/c.yaml").out();
        // Jenkins splits classname at its last dot into package and class: no dot, so the class is the whole path
        assertTrue(junit.contains("classname=\"infra/c\u00B7yaml\""), junit);
        Matcher m = Pattern.compile("classname=\"([^\"]*)\"").matcher(junit);
        while (m.find()) assertFalse(m.group(1).contains("."), m.group(1));
    }

    @Test
    void oneTestSuitePerFileTheClosingLineCounts(@TempDir Path repo) throws IOException {
        Files.createDirectories(repo.resolve(".git"));
        CliTest.write(repo, "c.yaml", ProjectRootCliTest.ROCE);
        // named as nvidia-smi -q output but is not: skipped, with a note on it
        CliTest.write(repo, "evidence/node-1.smi-q.txt", "hello\n");
        String text = runIn(repo, "c.yaml", "evidence/").out();
        assertTrue(text.contains("[SYN006]"), text);
        Matcher count = Pattern.compile(" in (\\d+) files?\n$").matcher(text);
        assertTrue(count.find(), text);
        String junit = runIn(repo, "-f", "junit", "c.yaml", "evidence/").out();
        assertEquals(Integer.parseInt(count.group(1)), junit.split("<testsuite ", -1).length - 1, text + junit);
    }
}
