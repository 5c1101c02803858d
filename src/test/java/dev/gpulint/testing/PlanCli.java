package dev.gpulint.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The CLI tests' set-up. {@link #run} runs any command line ({@code check}, {@code plan}, {@code explain}...) through the
 * CLI's one entry ({@link Main#run}) in process, giving its exit code, standard output and standard error ({@link Run});
 * for the plan tests, files written to a test's temporary folder, a {@code .gpulint.yaml} that puts the job files on a
 * cluster, and {@code gpulint plan} run on every file written, in the order written. The tests then read the exit code,
 * the text, or the JSON report parsed into maps and lists.
 *
 * <pre>{@code
 * PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("neox.yml", NEOX)
 *         .jobClusters("lab", "*.yml").planJson("--top", "1");
 * Map<String, Object> doc = r.json();
 * }</pre>
 */
public final class PlanCli {

    /**
     * Cluster {@code lab}, node group {@code dgx}: 2 nodes of 8 H100-SXM5-80GB on an NVLink switch, each with 8
     * ConnectX-7 NICs of 400 Gb/s on InfiniBand (a DGX H100's shape).
     */
    public static final String LAB_H100 = """
            kind: cluster
            name: lab
            fabric: { type: infiniband }
            node_groups:
              - name: dgx
                count: 2
                gpu: { model: H100-SXM5-80GB, count: 8 }
                nvlink: { switch: true }
                nics:
                  - { model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband }
            """;

    /** One run of the CLI: its exit code and what it wrote to standard output and standard error. */
    public record Run(int code, String out, String err) {
        /** The standard output read as a JSON (YAML) document whose top is a mapping. */
        public Map<String, Object> json() {
            return map(new Load(LoadSettings.builder().build()).loadFromString(out));
        }
    }

    private final Path dir;
    private final List<Path> files = new ArrayList<>();
    private Path config;

    private PlanCli(Path dir) {
        this.dir = dir;
    }

    /** A plan run on files written under {@code dir} (a test's {@code @TempDir}). */
    public static PlanCli in(Path dir) {
        return new PlanCli(dir);
    }

    /** {@code gpulint} run with {@code args}, as the shell would run it. */
    public static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    /** Writes {@code text} to {@code name} (a path under the folder; its folders are made) and gives the file to plan. */
    public PlanCli file(String name, String text) {
        Path p = dir.resolve(name);
        try {
            if (p.getParent() != null) Files.createDirectories(p.getParent());
            Files.writeString(p, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        files.add(p);
        return this;
    }

    /**
     * Writes {@code .gpulint.yaml} with one {@code job_clusters} entry per glob, each on {@code cluster}, and passes it
     * to plan with {@code -c}.
     */
    public PlanCli jobClusters(String cluster, String... globs) {
        StringBuilder b = new StringBuilder("job_clusters:\n");
        for (String g : globs) b.append("  - { files: \"").append(g).append("\", cluster: ").append(cluster).append(" }\n");
        Path p = dir.resolve(".gpulint.yaml");
        try {
            Files.writeString(p, b.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        config = p;
        return this;
    }

    /** Writes {@code .gpulint.yaml} with {@code text} (rule {@code params:}, ...) and passes it to plan with {@code -c}. */
    public PlanCli config(String text) {
        Path p = dir.resolve(".gpulint.yaml");
        try {
            Files.createDirectories(dir);
            Files.writeString(p, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        config = p;
        return this;
    }

    /** {@code gpulint plan [-c .gpulint.yaml] OPTIONS FILES...}, the files in the order written. */
    public Run plan(String... options) {
        List<String> args = new ArrayList<>(List.of("plan"));
        if (config != null) args.addAll(List.of("-c", config.toString()));
        args.addAll(Arrays.asList(options));
        for (Path f : files) args.add(f.toString());
        return run(args.toArray(String[]::new));
    }

    /**
     * {@code plan -f json OPTIONS}: it must exit 0 (else its standard error and output are the failure); the run's
     * {@link Run#json()} is the report.
     */
    public Run planJson(String... options) {
        List<String> args = new ArrayList<>(List.of("-f", "json"));
        args.addAll(Arrays.asList(options));
        Run r = plan(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err() + r.out());
        return r;
    }

    /** A JSON object read from a parsed report. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }
}
