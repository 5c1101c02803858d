package dev.gpulint.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * Whether standard input can be read at all. Started with it closed ({@code gpulint - <&-}), the JVM
 * reuses descriptor 0 for a file of its own (a jar, the class archive), and reading "standard input"
 * then reads that file (megabytes of it). The launcher says so ({@code GPULINT_STDIN_CLOSED=1}); without
 * it, on Linux, descriptor 0 naming a file of the Java installation or of gpulint's jar gives it away.
 */
final class StdinCheck {
    private StdinCheck() {}

    static final String MESSAGE = "standard input is closed: pipe a manifest in (cat job.yaml | gpulint -), "
            + "or name the files to lint";

    /** The message when standard input is closed, else null. */
    static String closed(UnaryOperator<String> env) {
        if ("1".equals(env.apply("GPULINT_STDIN_CLOSED"))) return MESSAGE;
        if (env != Main.env || Main.stdin != Main.SYSTEM_IN) return null;   // tests give their own input
        try {
            Path fd0 = Path.of("/proc/self/fd/0");
            if (!Files.isSymbolicLink(fd0)) return null;
            Path target = Files.readSymbolicLink(fd0).toAbsolutePath().normalize();
            Path javaHome = Path.of(System.getProperty("java.home")).toAbsolutePath().normalize();
            String name = target.getFileName() == null ? "" : target.getFileName().toString();
            if (target.startsWith(javaHome) || (name.startsWith("gpulint-") && (name.endsWith(".jar") || name.endsWith(".jsa")))) {
                return MESSAGE;
            }
        } catch (Exception e) {
            return null;
        }
        return null;
    }
}
