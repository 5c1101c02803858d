import dev.gpulint.bind.Binder;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.Resolver;
import dev.gpulint.derive.estimate.JobEstimate;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * What the estimate alone costs per manifest: reads, binds and resolves each native manifest once, then times
 * JobEstimate.of (inputs, memory per stage, time per tier) on its first job, warm, and prints the median of 7 rounds
 * of 200 estimates in milliseconds per estimate. The CLI's plan/check wall times include the JVM start and the lint;
 * this is the part `check` adds for MEM003. Run from the repository root after a build:
 *   java -cp src/target/gpulint-VERSION-all.jar bench/EstimateBench.java bench/generated/plan/*.yaml
 */
public class EstimateBench {
    public static void main(String[] args) throws Exception {
        Catalog catalog = Catalog.builtIn();
        double worst = 0, sum = 0;
        int n = 0;
        for (String a : args) {
            Path p = Path.of(a);
            var read = new YamlReader().read(SourceFile.of(p.getFileName().toString(), Files.readString(p)));
            var bound = new Binder().bind(read.documents());
            Resolver r = new Resolver(catalog);
            r.clusters(bound.clusters());
            List<Resolved.Job> jobs = bound.jobs().stream().map(r::job).toList();
            if (jobs.isEmpty()) continue;
            Resolved.Job job = jobs.get(0);
            if (JobEstimate.of(job, catalog).estimate() == null) continue;
            double[] rounds = new double[7];
            for (int w = 0; w < 200; w++) JobEstimate.of(job, catalog);
            for (int k = 0; k < rounds.length; k++) {
                long t = System.nanoTime();
                for (int i = 0; i < 200; i++) JobEstimate.of(job, catalog);
                rounds[k] = (System.nanoTime() - t) / 200 / 1e6;
            }
            Arrays.sort(rounds);
            double ms = rounds[rounds.length / 2];
            System.out.printf(java.util.Locale.ROOT, "estimate %-40s %.3f ms%n", p.getFileName(), ms);
            worst = Math.max(worst, ms);
            sum += ms;
            n++;
        }
        if (n > 0) System.out.printf(java.util.Locale.ROOT, "estimate alone: mean %.3f ms, max %.3f ms per manifest over %d%n", sum / n, worst, n);
    }
}
