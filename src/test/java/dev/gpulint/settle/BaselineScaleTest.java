package dev.gpulint.settle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A baseline gpulint writes is one it reads back (#25): 130 files × 1,000 findings wrote an 80 MB baseline
 * that the 64 MiB side-file limit then refused. Baselines are streamed; only their fingerprints are kept.
 */
class BaselineScaleTest {

    private static final String HEAD = "{\"version\":\"2.1.0\",\"runs\":[{\"results\":[";

    private static String result(int i) {
        return "{\"ruleId\":\"PAR002\",\"partialFingerprints\":{\"gpulint/v1\":\"" + String.format("%032x", i) + "\"}}";
    }

    @Test
    void aBaselineLargerThanTheSideFileLimitIsRead(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("big.sarif");
        byte[] padding = new byte[1 << 20];
        java.util.Arrays.fill(padding, (byte) ' ');   // the message texts and rule help of a real baseline
        try (OutputStream out = Files.newOutputStream(f)) {
            out.write(HEAD.getBytes(StandardCharsets.UTF_8));
            for (int i = 0; i < 70; i++) {
                out.write((result(i) + ",").getBytes(StandardCharsets.UTF_8));
                out.write(padding);
            }
            out.write((result(70) + "]}]}").getBytes(StandardCharsets.UTF_8));
        }
        assertTrue(Files.size(f) > dev.gpulint.core.RegularFiles.SIDE_FILE_LIMIT);
        Set<String> read = Baseline.read(f);
        assertEquals(71, read.size());
        assertTrue(read.contains(String.format("%032x", 70)));
    }

    @Test
    void moreFingerprintsThanTheBoundAreRefusedAndNeverWritten(@TempDir Path dir) throws IOException {
        StringBuilder b = new StringBuilder(HEAD);
        for (int i = 0; i < 11; i++) b.append(i == 0 ? "" : ",").append(result(i));
        Path f = Files.writeString(dir.resolve("b.sarif"), b.append("]}]}").toString());
        assertEquals(11, Baseline.read(f, 11).size());
        Baseline.NotABaseline e = assertThrows(Baseline.NotABaseline.class, () -> Baseline.read(f, 10));
        assertEquals("it holds more than 10 fingerprints, more than gpulint reads from a baseline", e.getMessage());
        assertEquals(null, Baseline.tooMany(Baseline.MAX_FINGERPRINTS));
        assertTrue(Baseline.tooMany(Baseline.MAX_FINGERPRINTS + 1L).startsWith("2000001 findings are more than a baseline holds (2000000)"));
    }
}
