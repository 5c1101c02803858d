package dev.gpulint.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * The runs bin/gpulint records its class archive from (AppCDS, {@code -XX:ArchiveClassesAtExit}): the commands users
 * run most, on the samples, in one JVM, so that the classes of each are in the archive. A dynamic archive holds what one
 * process loaded, and a {@code check} alone left out the ~100 classes of the plan's search, estimate and report (and
 * the text renderer), which every cold {@code plan} then read from the jar and verified (bench/README.md, "startup").
 * Run as {@code java -XX:ArchiveClassesAtExit=FILE -cp JAR dev.gpulint.cli.ArchiveRun SAMPLES}; what the runs report
 * goes to standard output and error as {@link Main#main} writes it (the launcher discards both), and their exit codes
 * are not read: a failing run only leaves its classes out of the archive.
 */
public final class ArchiveRun {
    private ArchiveRun() {}

    /** The command lines, each after the samples folder's path is put in place of {@code S}. */
    static final List<List<String>> RUNS = List.of(
            List.of("check", "--format", "sarif", "S"),
            List.of("check", "S/plan"),
            List.of("plan", "S/plan"),
            List.of("plan", "-f", "json", "S/plan"));

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: ArchiveRun SAMPLES_FOLDER");
            System.exit(Main.BAD_INPUT);
        }
        String samples = Path.of(args[0]).toString();
        ReportFile.stdout = new ReportFile.Stdout(new FileOutputStream(FileDescriptor.out));
        PrintWriter out = new PrintWriter(new OutputStreamWriter(ReportFile.stdout, StandardCharsets.UTF_8), false);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        for (String[] line : lines(samples)) Main.run(line, out, err);
        System.exit(Main.OK);
    }

    /** {@link #RUNS} on the samples folder {@code samples}. */
    static List<String[]> lines(String samples) {
        return RUNS.stream().map(run -> run.stream()
                .map(a -> a.equals("S") || a.startsWith("S/") ? samples + a.substring(1) : a).toArray(String[]::new)).toList();
    }
}
