package dev.gpulint.discover;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the machine's own tools for {@code gpulint discover} when no captures are given: nvidia-smi -q,
 * nvidia-smi topo -m, nvidia-smi nvlink -s and ibstat, each found on PATH and run directly (no shell),
 * with a timeout and its output capped; a tool that runs past it is stopped with every process it started. Each output is kept as an evidence file named by the
 * convention of docs/evidence.md (HOST.topo-m.txt, HOST.ibstat.txt, ...) in the given folder, so
 * that a later check reads it beside the manifest.
 */
public final class Probe {
    /** Bytes of a tool's output kept; nvidia-smi -q of 8 GPUs prints about 100 KB. */
    public static final long MAX_OUTPUT = 8L * 1024 * 1024;

    /** A tool and the evidence file name its output is kept under. */
    record Tool(List<String> command, String suffix) {}

    static final List<Tool> TOOLS = List.of(
            new Tool(List.of("nvidia-smi", "-q"), ".smi-q.txt"),
            new Tool(List.of("nvidia-smi", "topo", "-m"), ".topo-m.txt"),
            new Tool(List.of("nvidia-smi", "nvlink", "-s"), ".nvlink-s.txt"),
            new Tool(List.of("ibstat"), ".ibstat.txt"));

    private final String path;
    private final long timeoutSeconds;
    private final List<String> log = new ArrayList<>();

    /** @param path the PATH to look the tools up in (the environment's, in the command) */
    public Probe(String path, long timeoutSeconds) {
        this.path = path == null ? "" : path;
        this.timeoutSeconds = timeoutSeconds;
    }

    /** What was run, skipped or cut, one line each, for standard error. */
    public List<String> log() { return log; }

    /** The tool's executable on PATH, or null. */
    Path which(String name) {
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            Path p = Path.of(dir, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) return p;
        }
        return null;
    }

    /** Whether any of the tools is on PATH. */
    public boolean anyTool() {
        return TOOLS.stream().anyMatch(t -> which(t.command().get(0)) != null);
    }

    /**
     * Stops a tool and every process it started: a wrapper script's children (its {@code sleep}, an {@code ssh} it ran)
     * would keep running, and holding the output file, after the tool itself was killed. The descendants are taken
     * before the tool is killed (after, they belong to init and are no longer its), each killed forcibly.
     */
    static void stop(Process p) {
        List<ProcessHandle> tree = p.descendants().toList();
        p.destroyForcibly();
        for (ProcessHandle h : tree) h.destroyForcibly();
        try {
            p.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Runs each tool found and returns the evidence files written into {@code dir}, named after {@code host}. */
    public List<Path> run(Path dir, String host) throws IOException {
        List<Path> out = new ArrayList<>();
        String base = host.replaceAll("[^A-Za-z0-9._-]", "_");
        for (Tool t : TOOLS) {
            Path exe = which(t.command().get(0));
            if (exe == null) {
                log.add(t.command().get(0) + " is not on PATH: " + String.join(" ", t.command()) + " skipped");
                continue;
            }
            List<String> cmd = new ArrayList<>(t.command());
            cmd.set(0, exe.toString());
            Path file = dir.resolve(base + t.suffix());
            Path tmp = dev.gpulint.core.TempFiles.create(dir, base, ".part");     // removed on SIGTERM too
            try {
                Process p = new ProcessBuilder(cmd).redirectOutput(tmp.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD)
                        .redirectInput(ProcessBuilder.Redirect.from(new File(File.separatorChar == '/' ? "/dev/null" : "NUL"))).start();
                boolean done = false;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
                try {
                    // waits in steps, so that a tool printing without end is stopped at the size cap too
                    while (!done && System.nanoTime() < deadline && Files.size(tmp) <= MAX_OUTPUT) {
                        done = p.waitFor(100, TimeUnit.MILLISECONDS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                if (!done) {
                    stop(p);
                    log.add(String.join(" ", t.command()) + " did not finish in " + timeoutSeconds + " s or printed more than "
                            + MAX_OUTPUT / (1024 * 1024) + " MiB: stopped, its output not used");
                    continue;
                }
                if (p.exitValue() != 0 || Files.size(tmp) == 0) {
                    log.add(String.join(" ", t.command()) + " exited " + p.exitValue() + (Files.size(tmp) == 0 ? " with no output" : "")
                            + ": its output not used");
                    continue;
                }
                if (Files.size(tmp) > MAX_OUTPUT) {
                    log.add(String.join(" ", t.command()) + " printed more than " + MAX_OUTPUT / (1024 * 1024) + " MiB: its output not used");
                    continue;
                }
                Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                log.add(String.join(" ", t.command()) + ": kept as " + file);
                out.add(file);
            } finally {
                dev.gpulint.core.TempFiles.done(tmp);
            }
        }
        return out;
    }
}
