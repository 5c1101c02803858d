import dev.gpulint.bind.Binder;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.Resolver;
import dev.gpulint.derive.estimate.Estimate;
import dev.gpulint.derive.estimate.JobEstimate;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The estimate as a function of the catalog's efficiencies, for bench/plan_calibration.py --fit: reads, binds and
 * resolves each native manifest once (the bench's generated rows), then answers one line of standard input per
 * evaluation. A line is the efficiencies to override, "name=value" separated by spaces (the names .gpulint.yaml's
 * plan: takes; an empty line is the catalog as it is); the answer is one line, per manifest in argument order
 * "tokens/s/GPU model-TFLOP/s/GPU MFU step-s" joined by tabs. Each estimate is JobEstimate.of at the job's own GPU
 * count with no measured links, the current layout `gpulint plan` prices (plan_calibration.py checks that the two
 * agree before it fits). The fit itself (which rows, which constants, least squares, rounding) is the Python's.
 * Run from the repository root after a build:
 *   java -cp src/target/gpulint-VERSION-all.jar bench/PlanFit.java bench/generated/plan/nemo-h100-fp8-*.yaml
 */
public class PlanFit {
    public static void main(String[] args) throws Exception {
        Catalog catalog = Catalog.builtIn();
        List<Resolved.Job> jobs = new ArrayList<>();
        for (String a : args) {
            Path p = Path.of(a);
            var read = new YamlReader().read(SourceFile.of(p.getFileName().toString(), Files.readString(p)));
            var bound = new Binder().bind(read.documents());
            Resolver r = new Resolver(catalog);
            r.clusters(bound.clusters());
            List<Resolved.Job> js = bound.jobs().stream().map(r::job).toList();
            if (js.isEmpty()) throw new IllegalArgumentException(a + ": no job");
            jobs.add(js.get(0));
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            Map<String, Double> overrides = new HashMap<>();
            for (String kv : line.trim().split("\\s+")) {
                if (kv.isEmpty()) continue;
                int eq = kv.indexOf('=');
                overrides.put(kv.substring(0, eq), Double.parseDouble(kv.substring(eq + 1)));
            }
            List<String> out = new ArrayList<>();
            for (Resolved.Job job : jobs) {
                Estimate e = JobEstimate.of(job, catalog, job.totalGpus(), Map.of(), overrides).estimate();
                if (e == null) throw new IllegalArgumentException(job.name() + ": cannot be estimated");
                Estimate.Throughput t = e.throughput();
                out.add(String.format(Locale.ROOT, "%.6f %.6f %.8f %.8f", t.tokensPerSecondPerGpu(), t.modelTflopsPerGpu(),
                        t.mfu(), e.time().step()));
            }
            System.out.println(String.join("\t", out));
            System.out.flush();
        }
    }
}
