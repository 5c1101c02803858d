package dev.gpulint.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * One list of extensions: the CLI's folder walk, the Maven plugin's default includes and the
 * pre-commit hooks' {@code files:} pattern all come from {@link Readers#SYNTAXES}. The hook file is
 * YAML outside Java, so this test holds it equal to the list; the plugin takes the list itself.
 */
class ExtensionListTest {
    private static final Path ROOT = Path.of("..");

    @Test
    void thePreCommitHooksMatchExactlyTheExtensionsGpulintReads() throws Exception {
        String hooks = Files.readString(ROOT.resolve(".pre-commit-hooks.yaml"));
        Matcher m = Pattern.compile("(?m)^\\s*files:\\s*(\\S+)\\s*$").matcher(hooks);
        int hooksSeen = 0;
        while (m.find()) {
            assertEquals(Readers.preCommitPattern(), m.group(1), "the files: pattern of hook " + (hooksSeen + 1));
            hooksSeen++;
        }
        assertEquals(2, hooksSeen, "both hooks (gpulint and gpulint-system) have a files: pattern");
        Pattern files = Pattern.compile(Readers.preCommitPattern());
        for (String ext : Readers.extensions()) assertTrue(files.matcher("a/b." + ext).find(), ext);
    }

    @Test
    void theMavenPluginsDefaultIncludesAreTheList() throws Exception {
        String mojo = Files.readString(ROOT.resolve("maven-plugin/src/main/java/dev/gpulint/maven/CheckMojo.java"));
        assertTrue(mojo.contains("List<String> includes = dev.gpulint.read.Readers.includeGlobs();"),
                "CheckMojo's default includes must be Readers.includeGlobs(), not a copy");
        assertEquals(Readers.extensions().size(), Readers.includeGlobs().size());
        for (String ext : Readers.extensions()) {
            assertTrue(Readers.includeGlobs().contains("**/*." + ext), ext);
            assertTrue(Readers.isCandidate("x." + ext), "the folder walk takes ." + ext);
        }
        assertEquals(List.of("topo", "yaml", "yml", "json", "csv", "sh", "bash", "sbatch", "slurm", "slrm", "sb", "toml"), Readers.extensions());
    }
}
