package dev.gpulint.cli;

import dev.gpulint.daemon.Engine;
import dev.gpulint.daemon.Invocation;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The command line as a warm {@link Engine}: {@link Main#run} with the request's working directory, environment
 * (the engine reads variables through {@link Main#env} only, and gets the request's) and standard input, and
 * with {@code System.out} and {@code System.err} caught for the run, so what a library prints reaches the client
 * as it would reach a cold run's terminal. The command line keeps these in statics, so runs take turns.
 * What always runs cold: {@link #refuses}.
 */
public final class WarmCli implements Engine {
    private static final Object TURN = new Object();
    static final Set<String> COLD = Set.of("discover", "daemon", "lsp");

    /**
     * {@code discover} runs the tools on the client's PATH; {@code daemon} is the daemon's own; {@code lsp} is a session
     * on standard input and output as long as the editor's; and a run that reads standard input ({@code -},
     * {@code --stdin-filename}) would hold the engine, and every client behind it, for as long as its input takes.
     */
    @Override
    public String refuses(Invocation inv) {
        for (String a : inv.args()) {
            if (COLD.contains(a)) return "command";      // any argument, so options before the command count too
            if (a.equals("-") || a.startsWith("--stdin-filename")) return "stdin";
        }
        return null;
    }

    @Override
    public int run(Invocation inv, OutputStream out, OutputStream err) {
        synchronized (TURN) {
            var env = Main.env;
            var dir = Main.workingDir;
            var in = Main.stdin;
            var stdout = ReportFile.stdout;
            PrintStream sysOut = System.out;
            PrintStream sysErr = System.err;
            Map<String, String> vars = inv.env();
            try {
                Main.env = vars::get;
                Main.workingDir = inv.cwd();
                Main.stdin = inv.stdin();
                ReportFile.stdout = null;
                System.setOut(new PrintStream(out, true));
                System.setErr(new PrintStream(err, true));
                return Main.run(inv.args().toArray(String[]::new),
                        new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), false),
                        new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
            } finally {
                System.setOut(sysOut);
                System.setErr(sysErr);
                Main.env = env;
                Main.workingDir = dir;
                Main.stdin = in;
                ReportFile.stdout = stdout;
            }
        }
    }

    /** A cluster and a job with a finding, linted before the daemon answers: the first request meets compiled code. */
    private static final String WARM_UP = """
            kind: cluster
            name: pod
            fabric: { type: infiniband, topology: rail-optimized }
            node_groups:
              - name: dgx
                count: 2
                gpu: { model: H100-SXM5-80GB, count: 8 }
                nvlink: { switch: true, bandwidth: 900 GB/s }
                nics:
                  - { model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true }
            ---
            kind: training_job
            name: job
            cluster: pod
            nodes: 2
            parallelism: { tp: 16 }
            """;

    /** Runs the text, JSON and SARIF reports of {@link #WARM_UP} until {@code budgetMillis} have passed (at most 40 runs). */
    void warmUp(long budgetMillis) throws IOException {
        Path dir = Files.createTempDirectory("gpulint-warm-up-");
        try {
            long end = System.nanoTime() + budgetMillis * 1_000_000;
            byte[] text = WARM_UP.getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < 40 && System.nanoTime() < end; i++) {
                String format = List.of("text", "json", "sarif").get(i % 3);
                run(new Invocation(List.of("-f", format, "--stdin-filename", "warm-up.yaml", "-"), dir, Map.of(),
                        () -> new ByteArrayInputStream(text)), OutputStream.nullOutputStream(), OutputStream.nullOutputStream());
            }
        } finally {
            Files.deleteIfExists(dir);
        }
    }
}
