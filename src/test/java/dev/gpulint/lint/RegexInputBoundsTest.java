package dev.gpulint.lint;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.SourceFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import dev.gpulint.testing.CpuBudget;

/** Values padded with 100k blanks before a stray character: every regular expression sees a bounded input. */
class RegexInputBoundsTest {

    private static final String PAD = " ".repeat(100_000);

    private static String sample(String name) throws IOException {
        return Files.readString(Path.of("../samples/sound", name));
    }

    private static void fast(SourceFile... files) {
        var r = CpuBudget.ofSeconds(15).run(() -> new Linter().lint(List.of(files)));
        assertTrue(r.findings().stream().noneMatch(f -> f.message().contains("Exception")), r.findings().toString());
    }

    @Test
    void bandwidthRatioAndAccelerators() throws IOException {
        String pod = sample("h100-pod.yaml");
        fast(SourceFile.of("c.yaml", pod.replace("speed: 400 Gb/s", "speed: \"400" + PAD + "Gb/s" + PAD + "x\"")));
        fast(SourceFile.of("c.yaml", pod.replace("oversubscription: \"1:1\"", "oversubscription: \"1" + PAD + ":" + PAD + "1" + PAD + "x\"")));
        fast(SourceFile.of("sky.yaml", sample("skypilot-finetune.yaml").replaceFirst("accelerators: ([^\\n]*)",
                "accelerators: \"H100" + PAD + ":" + PAD + "8" + PAD + "x\"")));
    }
}
