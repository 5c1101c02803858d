package dev.gpulint.lint;

import dev.gpulint.spec.Model;
import dev.gpulint.core.LintResult;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gpulint.bind.Binder;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Deriver;
import dev.gpulint.spec.Quantities;
import dev.gpulint.read.ReadResult;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.dsl.DslReader;
import dev.gpulint.read.yaml.YamlReader;
import dev.gpulint.core.Finding;
import dev.gpulint.tree.Document;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Mutation fuzzing seeded from samples/: byte- and token-level mutations of
 * every sample, through both front ends, the binder and the derive stage (and
 * a share through the whole pipeline with the rules), plus random quantity
 * strings through the unit parser. No input may throw, and every finding's
 * region must lie inside its file. Deterministic: a fixed seed, so a failure
 * reproduces; the failing input is printed.
 */
class FuzzTest {

    static final int ROUNDS = Integer.getInteger("gpulint.fuzzRounds", 100_000);
    private static final String[] TOKENS = {"{", "}", "[", "]", "=", ":", "\"", "'", "\n", "  ", "\t", "#", "//", "/*", "*/",
            "-", "---", "&a", "*a", "!Ref", "null", "~", "0", "-1", "1e400", "99999999999999999999", "400 Gb/s", "8 GB",
            "tp", "pp", "dp", "nodes", "kind", "cluster", "training_job", "node_groups", "nics", "env", "NCCL_IB_TC",
            "\u00e9", "\uFEFF", "\r\n", "${X}", "???", "auto", "true", "0x1F"};

    private static List<SourceFile> seeds() throws IOException {
        List<SourceFile> out = new ArrayList<>();
        Path root = Path.of("..", "samples");
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
                // the path under samples/: file names repeat (model_config.yaml), and folder names carry meaning
                out.add(SourceFile.of(root.relativize(p).toString().replace('\\', '/'), Files.readString(p, StandardCharsets.UTF_8)));
            }
        }
        return out;
    }

    private static String mutate(String text, SplittableRandom r) {
        StringBuilder sb = new StringBuilder(text);
        int n = 1 + r.nextInt(4);
        for (int k = 0; k < n; k++) {
            int at = sb.length() == 0 ? 0 : r.nextInt(sb.length() + 1);
            switch (r.nextInt(5)) {
                case 0 -> sb.insert(at, TOKENS[r.nextInt(TOKENS.length)]);
                case 1 -> { if (sb.length() > 0) sb.delete(at == sb.length() ? at - 1 : at, Math.min(sb.length(), at + 1 + r.nextInt(8))); }
                case 2 -> sb.insert(at, (char) r.nextInt(0x20, 0x7f));
                case 3 -> { if (sb.length() > 0 && at < sb.length()) sb.setCharAt(at, (char) r.nextInt(0, 0x250)); }
                default -> {
                    int from = sb.length() == 0 ? 0 : r.nextInt(sb.length());
                    sb.insert(at, sb.substring(from, Math.min(sb.length(), from + r.nextInt(40))));
                }
            }
        }
        return sb.toString();
    }

    @Test
    void frontEndsBinderAndDeriveNeverThrow() throws IOException {
        // the DSL and YAML front ends take the manifests; captured tool outputs (.txt, .log) go through their own
        // reader, which wholePipelineNeverThrows mutates
        List<SourceFile> seeds = seeds().stream().filter(s -> dev.gpulint.read.Readers.isCandidate(s.displayPath())
                && !dev.gpulint.read.evidence.EvidenceReader.sniffedByContent(s.displayPath())).toList();
        SplittableRandom r = new SplittableRandom(20261202L);
        Catalog catalog = Catalog.builtIn();
        int findings = 0;
        for (int i = 0; i < ROUNDS; i++) {
            SourceFile seed = seeds.get(r.nextInt(seeds.size()));
            String text = mutate(seed.text(), r);
            boolean dsl = r.nextBoolean();
            SourceFile f = SourceFile.of(dsl ? "fuzz.topo" : "fuzz.yaml", text);
            try {
                ReadResult rr = dsl ? new DslReader().read(f) : new YamlReader().read(f);
                List<Document> docs = rr.documents();
                Model b = new Binder().bind(docs);
                new Deriver(catalog).derive(b);
                List<Finding> all = new ArrayList<>(rr.problems());
                all.addAll(b.findings());
                for (Finding x : all) inside(x, text);
                findings += all.size();
            } catch (StackOverflowError | RuntimeException e) {
                fail("input #" + i + " (" + f.displayPath() + ") threw " + e + ":\n" + text, e);
            }
        }
        assertTrue(findings > ROUNDS / 10, "the mutations do produce findings: " + findings);
    }

    @Test
    void wholePipelineNeverThrows() throws IOException {
        List<SourceFile> seeds = seeds();
        SplittableRandom r = new SplittableRandom(42L);
        Linter linter = new Linter();
        for (int i = 0; i < ROUNDS / 50; i++) {
            List<SourceFile> files = new ArrayList<>();
            for (SourceFile s : seeds) {
                String name = s.displayPath();
                files.add(SourceFile.of(name, r.nextInt(3) == 0 ? mutate(s.text(), r) : s.text()));
            }
            try {
                LintResult res = linter.lint(files);
                for (Finding x : res.findings()) {
                    String text = files.stream().filter(f -> f.displayPath().equals(x.span().file())).findFirst()
                            .map(SourceFile::text).orElse("");
                    inside(x, text);
                }
            } catch (StackOverflowError | RuntimeException e) {
                fail("pipeline round #" + i + " threw " + e, e);
            }
        }
    }

    @Test
    void unitParserNeverThrows() {
        SplittableRandom r = new SplittableRandom(7L);
        String alphabet = "0123456789._eE+- GgMmKkTtBbiIs/p()xX\u00b5";
        for (int i = 0; i < ROUNDS; i++) {
            StringBuilder sb = new StringBuilder();
            int len = r.nextInt(14);
            for (int k = 0; k < len; k++) sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
            String s = sb.toString();
            try {
                Quantities.bandwidth(s);
                Quantities.size(s);
                Quantities.count(s);
                Quantities.duration(s);
                Quantities.integer(s);
            } catch (RuntimeException e) {
                fail("'" + s + "' threw " + e, e);
            }
        }
    }

    /** A finding's region lies inside its file: lines exist, columns at most one past the line's end. */
    static void inside(Finding f, String text) {
        String[] lines = text.split("\r\n|\r|\n", -1);
        int sl = f.span().startLine(), el = f.span().endLine();
        if (sl > lines.length + 1 || el > lines.length + 1) {
            fail("region " + f.span() + "-" + el + " outside a " + lines.length + "-line file: " + f.message());
        }
        if (sl <= lines.length && f.span().startColumn() > lines[sl - 1].codePointCount(0, lines[sl - 1].length()) + 2) {
            fail("start column " + f.span().startColumn() + " past the end of line " + sl + " ('" + lines[sl - 1] + "'): " + f);
        }
    }
}
