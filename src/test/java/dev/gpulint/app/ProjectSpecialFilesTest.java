package dev.gpulint.app;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gpulint.core.Finding;
import dev.gpulint.core.LintResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.gpulint.testing.CpuLimit;

/** The Maven plugin's path (Project.matching): special files are reported, the walk stays in the project. */
class ProjectSpecialFilesTest {

    @Test
    @CpuLimit(seconds = 60)
    void devicesFifosAndLinksOutOfTheProject(@TempDir Path dir) throws Exception {
        assumeTrue(Files.exists(Path.of("/dev/zero")));
        Files.createSymbolicLink(dir.resolve("a-zero.yaml"), Path.of("/dev/zero"));
        Files.createSymbolicLink(dir.resolve("b-root"), Path.of("/"));
        Process mk = new ProcessBuilder("mkfifo", dir.resolve("c-pipe.yaml").toString()).start();
        assumeTrue(mk.waitFor() == 0);
        Files.writeString(dir.resolve("z-job.yaml"), "kind: training_job\nname: j\ncluster: nowhere\n");
        LintResult r = new Project(dir).matching(List.of("**/*.yaml"), List.of()).lint().result();
        List<String> got = r.findings().stream().map(f -> f.span().file() + " " + f.ruleId() + " " + f.message()).toList();
        assertTrue(got.contains("a-zero.yaml SYN001 cannot read 'a-zero.yaml': it is a special file (a device, FIFO or socket), "
                + "not a regular file; gpulint reads regular files only."), got.toString());
        assertTrue(got.stream().anyMatch(s -> s.startsWith("c-pipe.yaml SYN001 cannot read 'c-pipe.yaml': it is a special file")), got.toString());
        assertTrue(got.stream().anyMatch(s -> s.startsWith("z-job.yaml SYN003")), got.toString());
        assertTrue(got.stream().noneMatch(s -> s.startsWith("b-root/")), got.toString());
        assertTrue(r.inputFailed());
        for (Finding f : r.findings()) assertTrue(!f.message().contains("Exception"), f.message());
    }
}
