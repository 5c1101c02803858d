package dev.gpulint.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.config.Config;
import dev.gpulint.core.Finding;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.evidence.EvidenceReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.gpulint.testing.CpuBudget;

/**
 * A folder walk takes a .txt or .log file when configuration evidence: names it, else only when its
 * head shows a tool output gpulint reads (docs/evidence.md), whatever its name; other text files are
 * skipped without a word; and the decision reads at most {@link EvidenceReader#SNIFF_CHARS} bytes of a
 * file, however large. Taken files are read whole, up to the maximum file size.
 */
class DiscoveryEvidenceTest {

    @TempDir Path dir;

    static final String NCCL_LINE = "node01:4100:4180 [0] NCCL INFO Using network IB\n";

    private Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    /** What a walk of the folder takes, as display paths, and what it reports. */
    private record Walked(List<String> files, List<Finding> problems) {}

    private Walked walk() {
        Discovery d = new Discovery(Config.none(), dir);
        d.add(".");
        return new Walked(d.files().stream().map(SourceFile::displayPath).toList(), d.problems());
    }

    /** A file of {@code size} bytes (written out: a few MiB) that starts with {@code head}, then lines of a training run. */
    private Path sized(String name, String head, long size) throws IOException {
        StringBuilder b = new StringBuilder(head);
        while (b.length() < size) b.append("step 1 loss 2.31 lr 3e-4 tokens/s 812345\n");
        return write(name, b.toString());
    }

    @Test
    void aTopologyCaptureNamedPlainlyIsLintedAndOtherTextIsSkippedQuietly() throws IOException {
        write("x.txt", dev.gpulint.read.evidence.EvidenceTexts.TOPO);
        write("README.txt", "How to capture the evidence of a node\n\nRun nvidia-smi topo -m on GPU0's host and keep the output.\n");
        write("build.log", "[INFO] Scanning for projects...\n[INFO] BUILD SUCCESS\n[INFO] Total time:  2.031 s\n");
        write("requirements.txt", "torch==2.3.1\nnumpy\n");
        Walked w = walk();
        assertEquals(List.of("x.txt"), w.files());
        assertEquals(List.of(), w.problems());
    }

    @Test
    void anNcclLogIsTakenByItsLinesAmongTheProgramsOtherOutput() throws IOException {
        write("logs/run-17.log", "step 1 loss 2.31\n" + NCCL_LINE + "step 2 loss 2.29\n");
        write("logs/run-18.log", "step 1 loss 2.31\nNCCL INFO without its host:pid:tid prefix is no NCCL debug line\n");
        Walked w = walk();
        assertEquals(List.of("logs/run-17.log"), w.files());
        assertEquals(List.of(), w.problems());
    }

    @Test
    void aSignatureBeyondTheSniffedHeadIsNotSeen() throws IOException {
        StringBuilder chatter = new StringBuilder();
        while (chatter.length() <= EvidenceReader.SNIFF_CHARS) chatter.append("step 1 loss 2.31 lr 3e-4 tokens/s 812345\n");
        write("late.log", chatter + NCCL_LINE);
        write("early.log", NCCL_LINE + chatter);
        assertEquals(List.of("early.log"), walk().files());
    }

    @Test
    void aLargeLogIsDecidedFromItsHeadWithoutReadingTheWholeFile() throws IOException {
        // 3 MiB each against a 1 MiB limit: the walk decides from the 64 KiB head and the bounded read reports the
        // NCCL log as too large instead of reading it
        long size = 3L << 20;
        sized("huge-other.log", "[INFO] Scanning for projects...\n", size);
        sized("huge-nccl.log", NCCL_LINE, size);
        Walked w = CpuBudget.ofSeconds(15).run(() -> {
            Discovery d = new Discovery(Config.none(), dir).maxFileSize(1L << 20);
            d.add(".");
            return new Walked(d.files().stream().map(SourceFile::displayPath).toList(), d.problems());
        });
        // the other log is skipped without a word; the NCCL log is evidence, and as a file past the size limit it is
        // reported (not read) by the ordinary bounded read
        assertEquals(List.of(), w.files());
        assertEquals(1, w.problems().size(), w.problems().toString());
        Finding tooLarge = w.problems().get(0);
        assertEquals("huge-nccl.log", tooLarge.span().file());
        assertTrue(tooLarge.message().contains("gpulint reads per file"), tooLarge.message());
    }

    @Test
    void filesConfigurationNamesAsEvidenceAreTakenWithoutSniffingAndReadWhole() throws IOException {
        StringBuilder chatter = new StringBuilder();
        while (chatter.length() <= EvidenceReader.SNIFF_CHARS) chatter.append("step 1 loss 2.31 lr 3e-4 tokens/s 812345\n");
        write("runs/late.log", chatter + NCCL_LINE);
        write("runs/notes.txt", "node01 was rebooted before this run\n");
        write("other/late.log", chatter + NCCL_LINE);
        Path conf = write(".gpulint.yaml", "evidence:\n  - { files: \"runs/**\", cluster: hgx }\n");
        Config config = Config.load(conf, ".gpulint.yaml");
        assertEquals(List.of(), config.problems());
        Discovery d = new Discovery(config, dir);
        d.add(".");
        List<SourceFile> taken = d.files().stream().filter(f -> !f.displayPath().endsWith(".gpulint.yaml")).toList();
        // other/late.log is outside the glob: its head shows nothing, so it is skipped as before
        assertEquals(List.of("runs/late.log", "runs/notes.txt"), taken.stream().map(SourceFile::displayPath).toList());
        // the NCCL line after the first 64 KiB is found by the reader, which looks through the whole file
        dev.gpulint.read.ReadResult late = EvidenceReader.read(taken.get(0));
        assertEquals(List.of(), late.problems());
        assertEquals(1, late.evidence().size());
        assertEquals(dev.gpulint.read.evidence.Evidence.Kind.NCCL_LOG, late.evidence().get(0).kind());
        // a file that is no tool output gets the SYN006 note
        dev.gpulint.read.ReadResult notes = EvidenceReader.read(taken.get(1));
        assertEquals(List.of(), notes.evidence());
        assertEquals(1, notes.problems().size());
        assertEquals("SYN006", notes.problems().get(0).ruleId());
        assertTrue(notes.problems().get(0).message().startsWith("'runs/notes.txt' holds no tool output gpulint reads"),
                notes.problems().get(0).message());
    }
}
