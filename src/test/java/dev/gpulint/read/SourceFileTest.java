package dev.gpulint.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The one map from display path to text that the rules' fixes and the plan's layout fixes are placed in. */
class SourceFileTest {
    private static final SourceFile A = SourceFile.of("a.yaml", "a: 1\n");
    private static final SourceFile A_AGAIN = new SourceFile(Path.of("./a.yaml"), "a.yaml", "a: 2\n");
    private static final SourceFile CTX = SourceFile.of("cluster.yaml", "kind: cluster\n");
    private static final SourceFile B = SourceFile.of("b.yaml", "b: 1\n");

    @Test
    void firstFileOfADisplayPathStandsForItAndContextIsLeftOut() {
        Map<String, String> texts = SourceFile.texts(List.of(A, CTX, A_AGAIN, B), Set.of("cluster.yaml"));
        assertEquals(List.of("a.yaml", "b.yaml"), List.copyOf(texts.keySet()));
        assertEquals("a: 1\n", texts.get("a.yaml"));
        assertEquals("b: 1\n", texts.get("b.yaml"));
    }

    @Test
    void byDisplayPathKeepsTheFilesInTheirOrder() {
        Map<String, SourceFile> files = SourceFile.byDisplayPath(List.of(B, A, A_AGAIN), Set.of());
        assertEquals(List.of(B, A), List.copyOf(files.values()));
    }
}
