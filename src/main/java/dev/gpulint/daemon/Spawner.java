package dev.gpulint.daemon;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts {@code gpulint daemon serve} as a process of its own: in a session of its own ({@code setsid}, when
 * there is one), so a Ctrl-C in the terminal that started it, or closing that terminal, does not reach it; from
 * the root folder (it holds no folder busy, and nothing it does may depend on where it was started); with
 * standard input from /dev/null and its log beside the state file.
 */
public final class Spawner {
    private Spawner() {}

    /**
     * The command: this JVM's own options (bin/gpulint's class archive, stack size, heap), without the quick
     * compiler's limit (a resident process is worth the optimizing compiler), then the jar and the serve action.
     */
    public static List<String> command(Path jar, Duration idle) {
        List<String> c = new ArrayList<>();
        for (String s : List.of("/usr/bin/setsid", "/bin/setsid")) {
            if (Files.isExecutable(Path.of(s))) {
                c.add(s);
                break;
            }
        }
        c.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("-XX:TieredStopAtLevel") || a.startsWith("-XX:ArchiveClassesAtExit") || a.startsWith("-agentlib")
                    || a.startsWith("-javaagent") || a.startsWith("-Xdebug") || a.startsWith("-Xrunjdwp")) continue;
            c.add(a);
        }
        c.addAll(List.of("-jar", jar.toString(), "daemon", "serve", "--idle-timeout", idle.toSeconds() + "s"));
        return c;
    }

    /** The daemon's log: its start, stop and the reasons it sent clients to run cold. */
    public static Path log(Path stateFile) { return stateFile.resolveSibling(stateFile.getFileName() + ".log"); }

    public static Process spawn(List<String> command, Path stateFile) throws IOException {
        String problem = StateFile.folderProblem(stateFile.getParent());
        if (problem != null) throw new IOException(problem);
        Path log = log(stateFile);
        if (Files.exists(log) && Files.size(log) > (1 << 20)) Files.delete(log);      // a bounded log: the last run's
        ProcessBuilder pb = new ProcessBuilder(command).directory(new File("/"))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).redirectErrorStream(true);
        pb.environment().put("GPULINT_DAEMON_STATE", stateFile.toString());
        return pb.start();
    }
}
