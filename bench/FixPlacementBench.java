import dev.gpulint.core.Finding;
import dev.gpulint.core.Fix;
import dev.gpulint.core.Level;
import dev.gpulint.core.Safety;
import dev.gpulint.core.Span;
import dev.gpulint.core.TextEdit;
import dev.gpulint.settle.FixApplier;
import dev.gpulint.settle.FixSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What placing fixes costs as a file grows (issue 40, item 12): a file of N lines with one finding and one fix per
 * line, as a generated manifest with a unit mix-up on every line has. Each size is placed as every report places fixes
 * (FixSettings.apply) and applied as one --fix pass does (FixApplier.apply); the median of 5 rounds is printed in ms,
 * with the time per finding. Linear placement keeps the time per finding flat; placing each edit against its own line
 * index of the whole file makes it grow with N. Run from the repository root after a build:
 *   java -cp src/target/classes bench/FixPlacementBench.java [MAX_LINES]
 */
public class FixPlacementBench {
    public static void main(String[] args) {
        int max = args.length > 0 ? Integer.parseInt(args[0]) : 32_000;
        System.out.printf("%8s %12s %14s %12s %14s%n", "lines", "place ms", "place us/fix", "apply ms", "apply us/fix");
        for (int n = 1000; n <= max; n *= 2) {
            StringBuilder b = new StringBuilder();
            List<Finding> findings = new ArrayList<>(n);
            for (int i = 1; i <= n; i++) {
                b.append("    bandwidth_").append(i).append(": 900 Gb/s   # per GPU, ünïcode\n");
                Span s = new Span("f.yaml", i, 5, i, 5 + ("bandwidth_" + i + ": 900 Gb/s").length());
                findings.add(new Finding("UNIT001", Level.WARNING, s, "m", List.of(), "k" + i, null,
                        List.of(Fix.of("unit", Safety.SAFE, TextEdit.within(s, "Gb/s", "GB/s")))));
            }
            Map<String, String> texts = Map.of("f.yaml", b.toString());
            double[] place = new double[5], apply = new double[5];
            List<Finding> placed = null;
            for (int r = 0; r < 5; r++) {
                long t = System.nanoTime();
                placed = FixSettings.ALL.apply(findings, texts, null);
                place[r] = (System.nanoTime() - t) / 1e6;
                t = System.nanoTime();
                FixApplier.Result res = FixApplier.apply(texts, findings, Safety.SAFE);
                apply[r] = (System.nanoTime() - t) / 1e6;
                if (res.applied().size() != n || placed.stream().anyMatch(f -> f.fixes().isEmpty())) throw new AssertionError("not every fix placed");
            }
            java.util.Arrays.sort(place);
            java.util.Arrays.sort(apply);
            System.out.printf("%8d %12.1f %14.2f %12.1f %14.2f%n", n, place[2], place[2] * 1000 / n, apply[2], apply[2] * 1000 / n);
        }
    }
}
