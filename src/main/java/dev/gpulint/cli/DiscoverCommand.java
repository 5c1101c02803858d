package dev.gpulint.cli;

import dev.gpulint.core.Finding;
import dev.gpulint.discover.Probe;
import dev.gpulint.report.Visible;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gpulint discover [FILE...]}: the cluster manifest from the machine's captures (docs/evidence.md). */
@Command(name = "discover", mixinStandardHelpOptions = true, parameterListHeading = "%nParameters:%n",
        description = {"Write a cluster manifest from what the machine reports: nvidia-smi -q, nvidia-smi topo -m, "
                + "nvidia-smi nvlink -s, ibstat or ibv_devinfo captures given as files; with no files, runs those tools "
                + "(found on PATH, no shell, with a timeout) and keeps their output beside the manifest as evidence files.",
                "Each value's comment names its source line; what the captures cannot tell is a \"<fill in: ...>\" "
                + "placeholder that check reports (SYN008) until it is written."})
final class DiscoverCommand implements Callable<Integer> {
    /** Bytes of a capture read, as check reads a file by default. */
    static final long MAX_FILE = 8L * 1024 * 1024;

    enum Format { yaml, topo }

    @Parameters(paramLabel = "FILE", arity = "0..*", description = "captured tool outputs (.txt, .log, any name)")
    List<Path> files = new ArrayList<>();

    @Option(names = {"-f", "--format"}, description = "yaml or topo (the DSL) (default: ${DEFAULT-VALUE})")
    Format format = Format.yaml;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "write the manifest here instead of standard output")
    Path output;

    @Option(names = "--name", description = "the cluster's name (default: ${DEFAULT-VALUE})")
    String name = "discovered";

    @Option(names = "--node-group", description = "the node group's name (default: ${DEFAULT-VALUE})")
    String group = "node";

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "how long each tool may run (default: ${DEFAULT-VALUE})")
    long timeout = 30;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        if (timeout < 1 || timeout > 3600) {
            err.println("gpulint: --timeout must be 1 to 3600 seconds");
            return Main.BAD_INPUT;
        }
        Path wd = Main.workingDir;
        List<Path> inputs = new ArrayList<>();
        for (Path f : files) inputs.add(wd.resolve(f));
        Path target = output == null ? null : wd.resolve(output);
        if (output != null) {
            // as check's --output: a path it can write, never a capture it reads, written whole or not at all
            String problem = ReportFile.problem(output.toString(), wd);
            if (problem == null) problem = ReportFile.overInput(target, inputs);
            if (problem != null) {
                err.println("gpulint: cannot write --output " + output + ": " + problem + "; nothing was written, name another file");
                return Main.BAD_INPUT;
            }
        }
        Path dir = target == null ? wd.toAbsolutePath() : target.toAbsolutePath().getParent();
        if (inputs.isEmpty()) {
            Probe probe = new Probe(System.getenv("PATH"), timeout);
            if (!probe.anyTool()) {
                err.println("gpulint: no captures given and neither nvidia-smi nor ibstat is on PATH: run discover on the node, "
                        + "or give its captures (gpulint discover node.topo-m.txt node.smi-q.txt node.ibstat.txt)");
                return Main.BAD_INPUT;
            }
            inputs.addAll(probe.run(dir.toAbsolutePath(), host()));
            for (String l : probe.log()) err.println("gpulint: " + Visible.of(l));
            // the tools' outputs are kept under HOST.*.txt beside the manifest: -o naming one of them would replace it
            String over = target == null ? null : ReportFile.overInput(target, inputs);
            if (over != null) {
                err.println("gpulint: cannot write --output " + output + ": " + over + "; nothing was written, name another file");
                return Main.BAD_INPUT;
            }
        }
        List<dev.gpulint.read.evidence.Evidence> evidence = new ArrayList<>();
        List<String> read = new ArrayList<>();
        for (Path p : inputs) {
            String display = display(p, dir, wd);
            String text = readCapped(p, err);
            if (text == null) return Main.BAD_INPUT;
            var r = dev.gpulint.read.evidence.EvidenceReader.read(dev.gpulint.read.SourceFile.of(display, text));
            for (Finding f : r.problems()) {
                err.println(Visible.of(f.span().file()) + ":" + f.span().startLine() + ":" + f.span().startColumn() + ": " + Visible.of(f.message()));
            }
            if (!r.evidence().isEmpty()) read.add(display);
            evidence.addAll(r.evidence());
        }
        if (evidence.isEmpty()) {
            err.println("gpulint: nothing to discover from: no capture held nvidia-smi or ibstat output gpulint reads");
            return Main.BAD_INPUT;
        }
        String text = dev.gpulint.discover.DiscoverManifest.write(dev.gpulint.catalog.Catalog.builtIn(), evidence, read, name, group,
                format == Format.topo, n -> err.println(Visible.of(n)));
        if (output == null) {
            PrintWriter out = spec.commandLine().getOut();
            out.print(text);
            out.flush();
        } else {
            try {
                ReportFile.toFile(text, target, "--output " + output);
            } catch (ReportFile.Failure e) {
                err.println("gpulint: " + e.getMessage());
                return Main.BAD_INPUT;
            }
        }
        return Main.OK;
    }

    /** The path as the manifest's comments name it: relative to the manifest's folder when it is inside it. */
    private static String display(Path p, Path dir, Path wd) {
        Path abs = p.toAbsolutePath().normalize();
        Path base = dir.toAbsolutePath().normalize(), here = wd.toAbsolutePath().normalize();
        String s = abs.startsWith(base) ? base.relativize(abs).toString() : abs.startsWith(here) ? here.relativize(abs).toString() : p.toString();
        return s.replace('\\', '/');
    }

    private static String readCapped(Path p, PrintWriter err) {
        try (InputStream in = Files.newInputStream(p)) {
            byte[] b = in.readNBytes((int) MAX_FILE + 1);
            if (b.length > MAX_FILE) {
                err.println("gpulint: " + Visible.of(p.toString()) + " is larger than " + MAX_FILE / (1024 * 1024) + " MiB, more than any capture of one node");
                return null;
            }
            return new String(b, StandardCharsets.UTF_8);
        } catch (IOException e) {
            err.println("gpulint: " + Visible.of(p.toString()) + " could not be read: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
            return null;
        }
    }

    private static String host() {
        try {
            String h = java.net.InetAddress.getLocalHost().getHostName();
            int dot = h.indexOf('.');
            return dot > 0 ? h.substring(0, dot) : h;
        } catch (IOException e) {
            return "node";
        }
    }
}
