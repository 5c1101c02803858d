package dev.gpulint.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.core.LintResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The folders the Maven plugin leaves out of its walk: the build folder whatever its name (a copy of a
 * manifest there would be a second cluster of the same name, SYN004) and the modules that lint their
 * own files.
 */
class ProjectSkippedFoldersTest {

    @TempDir Path dir;

    static final String POD = "kind: cluster\nname: pod\nfabric: { type: infiniband }\nnode_groups:\n"
            + "  - { name: g, count: 1, gpu: { model: H100-SXM5-80GB, count: 8 }, nvlink: { switch: true } }\n";
    static final List<String> ALL = List.of("**/*.topo", "**/*.yaml", "**/*.yml", "**/*.json", "**/*.csv");

    private void write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text, StandardCharsets.UTF_8);
    }

    private static List<String> lines(LintResult r) {
        return r.findings().stream().map(f -> f.span() + " " + f.ruleId()).toList();
    }

    @Test
    void aBuildFolderNotNamedTargetIsLeftOutWhenGiven() throws IOException {
        write("manifests/pod.yaml", POD);
        write("out/classes/pod.yaml", POD);
        LintResult walked = new Project(dir).matching(ALL, List.of()).lint().result();
        assertEquals(List.of("out/classes/pod.yaml:2:7 SYN004"), lines(walked), "out/ is walked when not named as skipped");
        LintResult skipped = new Project(dir).matching(ALL, List.of(), List.of(dir.resolve("out"))).lint().result();
        assertEquals(List.of(), lines(skipped));
        assertEquals(List.of("manifests/pod.yaml"), skipped.files());
    }

    @Test
    void targetIsSkippedByDefaultAndModuleFoldersWhenGivenRelatively() throws IOException {
        write("pod.yaml", POD);
        write("target/classes/pod.yaml", POD);
        write("child/pod.yaml", POD);
        LintResult r = new Project(dir).matching(ALL, List.of(), List.of(Path.of("target"), Path.of("child"))).lint().result();
        assertEquals(List.of(), lines(r));
        assertEquals(List.of("pod.yaml"), r.files());
        LintResult byDefault = new Project(dir).matching(ALL, List.of()).lint().result();
        assertEquals(List.of("pod.yaml:2:7 SYN004"), lines(byDefault), "child/ is walked, target/ is not");
    }
}
