package dev.gpulint.lint;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gpulint.core.Finding;
import dev.gpulint.core.LintResult;
import dev.gpulint.read.SourceFile;
import dev.gpulint.ruletest.RuleCases;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Mutation fuzzing of every adapter format through the whole pipeline: the real-shaped files of
 * other formats in samples/ and in the rule cases (NeMo, Megatron-LM, PyTorchJob, MPIJob, Volcano,
 * TrainJob, SkyPilot, AWS Batch, DeepSpeed JSON, DCGM CSV and ConfigMaps, Prometheus rules,
 * accelerate, gpt-neox, NicConfigurationTemplate, SriovNetworkNodePolicy, HyperPodPyTorchJob, MXJob,
 * RayCluster/RayJob, Argo resource manifests, HyperPod and NeMo 2 recipes) get
 * their numbers replaced with edge values (0, -1, 2^31, 2^62, Long.MAX, 1e400, placeholders,
 * strings, lists, maps), keys deleted and keys duplicated. No input may throw or end in an
 * internal error, and every finding lies inside its file. Deterministic (a fixed seed) and bounded
 * by a count of rounds, never by the clock: the same rounds run on an idle laptop and a loaded CI
 * runner (-Dgpulint.adapterFuzzRounds=N runs more).
 */
class AdapterFuzzTest {

    static final int ROUNDS = Integer.getInteger("gpulint.adapterFuzzRounds", 600);
    private static final Pattern NUMBER = Pattern.compile("(?<![\\w.$-])-?[0-9]+(?:\\.[0-9]+)?(?![\\w.])");
    private static final String[] VALUES = {"0", "0", "-1", "-7", "2147483648", "4611686018427387904", "9223372036854775807",
            "99999999999999999999", "1e400", "\"???\"", "???", "${X}", "\"${X}\"", "auto", "abc", "\"8\"", "[1, 2]", "{a: 1}",
            "{\"a\": 1}", "null", "true", "1.5", "H100:0"};

    /** Files of other formats: every sample that is not a native manifest, and the rule cases' files of other formats. */
    static List<SourceFile> seeds() throws IOException {
        List<SourceFile> out = new ArrayList<>();
        Path root = Path.of("..", "samples");
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
                String text = Files.readString(p, StandardCharsets.UTF_8);
                String name = root.relativize(p).toString().replace('\\', '/');
                if (foreign(name, text)) out.add(SourceFile.of(name, text));
            }
        }
        for (Path t : RuleCases.testFiles()) {
            for (RuleCases.Case c : RuleCases.load(t)) {
                for (Map.Entry<String, String> f : c.files().entrySet()) {
                    if (foreign(f.getKey(), f.getValue())) out.add(SourceFile.of(f.getKey(), f.getValue()));
                }
            }
        }
        return out;
    }

    private static boolean foreign(String name, String text) {
        return !name.endsWith(".topo") && !text.contains("kind: training_job") && !text.contains("kind: cluster")
                && (name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json") || name.endsWith(".csv"));
    }

    static String mutate(String text, SplittableRandom r) {
        String t = text;
        int n = 1 + r.nextInt(3);
        for (int k = 0; k < n; k++) {
            switch (r.nextInt(6)) {
                case 0, 1, 2 -> t = replaceNumber(t, r);
                case 3 -> t = lines(t, r, false);
                case 4 -> t = lines(t, r, true);
                default -> {
                    // every number of the file at once: one edge value everywhere
                    String v = VALUES[r.nextInt(VALUES.length)];
                    t = NUMBER.matcher(t).replaceAll(Matcher.quoteReplacement(v));
                }
            }
        }
        return t;
    }

    private static String replaceNumber(String t, SplittableRandom r) {
        List<int[]> at = new ArrayList<>();
        Matcher m = NUMBER.matcher(t);
        while (m.find()) at.add(new int[] {m.start(), m.end()});
        if (at.isEmpty()) return t;
        int[] x = at.get(r.nextInt(at.size()));
        return t.substring(0, x[0]) + VALUES[r.nextInt(VALUES.length)] + t.substring(x[1]);
    }

    /** Deletes a line (a key and its value, when the value is on it) or duplicates it (a duplicate key). */
    private static String lines(String t, SplittableRandom r, boolean duplicate) {
        List<String> ls = new ArrayList<>(List.of(t.split("\n", -1)));
        if (ls.isEmpty()) return t;
        int i = r.nextInt(ls.size());
        if (duplicate) ls.add(i, ls.get(i)); else ls.remove(i);
        return String.join("\n", ls);
    }

    /** The seeds hold every format's shape, so that the mutations reach each adapter. */
    @Test
    void seedsHoldEveryFormatsShape() throws IOException {
        List<SourceFile> seeds = seeds();
        for (String marker : List.of("distributed_type:", "pipe_parallel_size", "pipe-parallel-size", "kind: NicConfigurationTemplate",
                "kind: SriovNetworkNodePolicy", "kind: HyperPodPyTorchJob", "kind: MXJob", "kind: RayJob", "kind: RayCluster",
                "manifest: |", "tensor_model_parallel_degree", "strategy:")) {
            assertTrue(seeds.stream().anyMatch(f -> f.text().contains(marker)), "a seed with " + marker);
        }
    }

    @Test
    void everyAdapterFormatSurvivesEdgeValuesMissingAndDuplicateKeys() throws IOException {
        List<SourceFile> seeds = seeds();
        assertTrue(seeds.size() > 40, "seeds of every format: " + seeds.size());
        SplittableRandom r = new SplittableRandom(20261203L);
        Linter linter = new Linter().serial();
        int rounds = 0, syn002 = 0;
        for (; rounds < ROUNDS; rounds++) {
            SourceFile seed = seeds.get(r.nextInt(seeds.size()));
            SourceFile f = SourceFile.of(seed.displayPath(), mutate(seed.text(), r));
            List<SourceFile> files = new ArrayList<>(List.of(f));
            // now and then with another file of the run, for the links between files (a launch naming a DeepSpeed config)
            if (r.nextInt(4) == 0) {
                SourceFile other = seeds.get(r.nextInt(seeds.size()));
                if (!other.displayPath().equals(f.displayPath())) files.add(other);
            }
            try {
                LintResult res = linter.lint(files);
                for (Finding x : res.findings()) {
                    if (x.message().toLowerCase(java.util.Locale.ROOT).contains("internal error")) {
                        fail("round #" + rounds + " (" + f.displayPath() + "): " + x + "\n" + f.text());
                    }
                    if (x.ruleId().equals("SYN002")) syn002++;
                    String text = files.stream().filter(s -> s.displayPath().equals(x.span().file())).findFirst()
                            .map(SourceFile::text).orElse("");
                    FuzzTest.inside(x, text);
                }
            } catch (StackOverflowError | RuntimeException e) {
                fail("round #" + rounds + " (" + f.displayPath() + ") threw " + e + ":\n" + f.text(), e);
            }
        }
        assertTrue(syn002 > rounds / 20, "the edge values do reach the schema's bounds: " + syn002 + " in " + rounds + " rounds");
    }
}
