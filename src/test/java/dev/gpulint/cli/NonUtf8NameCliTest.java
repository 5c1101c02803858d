package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.gpulint.testing.CpuBudget;

/**
 * A file whose name is not UTF-8 (Linux names are bytes: here j, 0xff, ob.yaml) is reported under a name the
 * user can find, {@code j\xffob.yaml}, the same in every format and from every working directory, under a UTF-8
 * locale and under the C locale; that name, or the raw bytes, also names the file on the command line.
 */
class NonUtf8NameCliTest {

    static final String SHOWN = "j\\xffob.yaml";

    @AfterEach
    void restore() {
        Main.workingDir = Path.of("");
    }

    /** The project folder with sub/j\xffob.yaml (a RoCE cluster without PFC or ECN); skipped where the file system refuses the name. */
    private static Path project(Path repo) throws IOException {
        Files.createDirectories(repo.resolve(".git"));
        Path sub = Files.createDirectories(repo.resolve("sub"));
        // the JDK's own URI-to-path conversion makes the byte 0xff (no String can name it under a UTF-8 locale)
        Path odd = Path.of(URI.create(sub.toUri() + "j%FFob.yaml"));
        try {
            Files.writeString(odd, ProjectRootCliTest.ROCE);
        } catch (IOException | RuntimeException e) {
            assumeTrue(false, "the file system refuses a name that is not UTF-8: " + e);
        }
        return repo;
    }

    private static PlanCli.Run runIn(Path cwd, String... args) {
        Main.workingDir = cwd;
        return PlanCli.run(args);
    }

    @Test
    void everyReportNamesTheFileWithItsBadByteEscaped(@TempDir Path tmp) throws IOException {
        Path repo = project(tmp);
        for (String format : List.of("text", "json", "sarif", "junit", "gitlab", "github")) {
            PlanCli.Run r = runIn(repo, "-f", format, "sub/");
            assertEquals(1, r.code(), format + ": " + r.err());
            assertFalse(r.out().contains("\uFFFD"), format + ": " + r.out());
            // JSON formats write the backslash as \\, SARIF's URIs percent-encode it
            String expected = switch (format) {
                case "json", "gitlab" -> "j\\\\xffob.yaml";
                case "sarif" -> "sub/j%5Cxffob.yaml";
                default -> SHOWN;
            };
            assertTrue(r.out().contains(expected), format + ": " + r.out());
        }
        assertTrue(runIn(repo, "sub/").out().startsWith("sub/" + SHOWN + ":3:17: error: "));
    }

    @Test
    void fingerprintsAreTheSameFromEveryWorkingDirectory(@TempDir Path tmp) throws IOException {
        Path repo = project(tmp);
        String top = runIn(repo, "-f", "gitlab", "sub/").out();
        String inside = runIn(repo.resolve("sub"), "-f", "gitlab", ".").out();
        assertEquals(fingerprints(top), fingerprints(inside));
        assertEquals(2, fingerprints(top).size(), top);
        assertTrue(inside.contains("\"path\" : \"sub/j\\\\xffob.yaml\""), inside);
    }

    private static List<String> fingerprints(String gitlab) {
        Matcher m = Pattern.compile("\"fingerprint\" : \"([0-9a-f]+)\"").matcher(gitlab);
        List<String> out = new java.util.ArrayList<>();
        while (m.find()) out.add(m.group(1));
        return out;
    }

    @Test
    void theShownNameNamesTheFileOnTheCommandLine(@TempDir Path tmp) throws IOException {
        Path repo = project(tmp);
        PlanCli.Run r = runIn(repo.resolve("sub"), SHOWN);
        assertEquals(1, r.code(), r.err() + r.out());
        assertTrue(r.out().startsWith(SHOWN + ":3:17: error: "), r.out());
    }

    /**
     * In a JVM of its own, under the C locale (no LANG: Java decodes names and arguments as ASCII) and under
     * C.UTF-8: the raw bytes named on the command line (as pre-commit passes a committed file) and a walk of the
     * folder both report the same name, and a valid non-ASCII name (café) is read too.
     */
    @Test
    void theRawNameOnTheCommandLineUnderEitherLocale(@TempDir Path tmp) throws Exception {
        Path repo = project(tmp);
        Files.writeString(repo.resolve("sub/caf\u00e9.yaml"), ProjectRootCliTest.ROCE);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (String locale : List.of("C", "C.UTF-8")) {
            // the shell turns \377 into the byte; Java's ProcessBuilder could not pass it
            ProcessBuilder pb = new ProcessBuilder("sh", "-c", "cd sub && exec \"$0\" -cp \"$1\" dev.gpulint.cli.Main "
                    + "\"$(printf 'j\\377ob.yaml')\" \"$(printf 'caf\\303\\251.yaml')\" && exit 9",
                    java, System.getProperty("java.class.path"));
            pb.directory(repo.toFile()).redirectErrorStream(true);
            pb.environment().remove("LANG");
            pb.environment().remove("LC_CTYPE");
            pb.environment().put("LC_ALL", locale);
            Process p = pb.start();
            byte[] out = p.getInputStream().readAllBytes();
            CpuBudget.waitFor(p, 120);
            String text = new String(out, StandardCharsets.UTF_8);
            assertEquals(1, p.exitValue(), locale + ": " + text);
            assertTrue(text.contains(SHOWN + ":3:17: error: "), locale + ": " + text);
            assertTrue(text.contains("caf\u00e9.yaml:3:17: error: "), locale + ": " + text);
            assertFalse(text.contains("\uFFFD"), locale + ": " + text);
        }
    }
}
