package dev.gpulint.cli;

import dev.gpulint.core.LintResult;
import dev.gpulint.report.Renderer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes a report where the user asked, and never loses it silently: every write is checked, and a
 * report that could not be written is a message naming the target (the caller exits 2).
 *
 * <p>A report file is written to a temporary file in the same folder and moved into place, so a
 * failed run never leaves half a report behind; an existing target that is not a regular file (a
 * terminal, {@code /dev/stdout}, a pipe) is written directly.
 */
final class ReportFile {

    /** Why a report could not be written, in words for standard error. */
    static class Failure extends Exception {
        Failure(String message) { super(message); }
    }

    /** The reader of standard output went away (`gpulint . | head -1`): not a failure to report. */
    static final class ClosedPipe extends Failure {
        ClosedPipe() { super("standard output was closed"); }
    }

    /**
     * Standard output, remembering why a write failed: a PrintWriter keeps only that it failed, and a
     * closed pipe (EPIPE, "Broken pipe") ends a run quietly where a full disk must be reported.
     */
    static final class Stdout extends java.io.FilterOutputStream {
        private volatile boolean closedPipe;

        Stdout(OutputStream out) { super(out); }

        @Override public void write(int b) throws IOException { guard(() -> out.write(b)); }

        @Override public void write(byte[] b, int off, int len) throws IOException { guard(() -> out.write(b, off, len)); }

        @Override public void flush() throws IOException { guard(out::flush); }

        private interface Io { void run() throws IOException; }

        private void guard(Io io) throws IOException {
            try {
                io.run();
            } catch (IOException e) {
                if (e.getMessage() != null && e.getMessage().contains("Broken pipe")) closedPipe = true;
                throw e;
            }
        }

        boolean closedPipe() { return closedPipe; }
    }

    /** Standard output of this process, when it is written through a {@link Stdout} (set by Main.main and tests). */
    static volatile Stdout stdout;

    private ReportFile() {}

    /**
     * Why the reports cannot be written where asked, once the run is over and before anything is written:
     * over an input of the run (gpulint -o job.yaml job.yaml cluster.yaml destroyed the manifest), both to
     * one file, or a baseline with more findings than a baseline holds. Empty when they can.
     *
     * @param overwrites why writing to a path would destroy an input of the run, or null (app.Checks#overwrites)
     */
    static java.util.List<String> overInputs(java.util.function.Function<Path, String> overwrites, String output, String writeBaseline, long findings) {
        java.util.List<String> out = new java.util.ArrayList<>();
        if (output != null && output.equals(writeBaseline)) {
            out.add("--output and --write-baseline name the same file, " + output + ": give each its own");
        }
        for (String[] target : new String[][] {{"--output", output}, {"--write-baseline", writeBaseline}}) {
            String why = target[1] == null ? null : overwrites.apply(Path.of(target[1]));
            if (why != null) out.add("will not write " + target[0] + " " + target[1] + " over an input: " + why + "; nothing was written, name another file");
        }
        String tooMany = writeBaseline == null ? null : dev.gpulint.settle.Baseline.tooMany(findings);
        if (tooMany != null) out.add("cannot write --write-baseline " + writeBaseline + ": " + tooMany);
        return out;
    }

    /** Renders to a PrintWriter (standard output) and checks that every byte got out. */
    static void toStream(Renderer r, LintResult result, PrintWriter out, String what) throws Failure {
        Writer w = new java.io.BufferedWriter(out);
        try {
            r.render(result, w);
            w.flush();
        } catch (IOException e) {
            throw new Failure("cannot write the report to " + what + ": " + reason(e));
        }
        if (out.checkError()) {
            Stdout s = stdout;
            if (s != null && s.closedPipe()) throw new ClosedPipe();
            throw new Failure("cannot write the report to " + what + " (the write failed)");
        }
    }

    /**
     * Why a report cannot be written to the path the user gave, checked before the run (a usage error,
     * exit 2), or null when it looks writable: a name ending in '/' or an existing folder, a file where
     * the path needs a folder, a folder where files cannot be created.
     *
     * @param given the path as given; a relative one is taken from {@code cwd}
     */
    static String problem(String given, Path cwd) {
        if (given.isEmpty()) return "the file name is empty";
        if (given.endsWith("/") || given.endsWith(java.io.File.separator)) return "it names a folder (it ends with '/'); give a file name";
        Path target;
        try {
            target = cwd.resolve(given).toAbsolutePath().normalize();
        } catch (java.nio.file.InvalidPathException e) {
            return "it is not a valid path (" + e.getReason() + ")";
        }
        if (Files.isDirectory(target)) return "it is a folder, not a file";
        Path parent = target.getParent();
        if (parent == null) return "it names no file";
        Path existing = parent;
        while (existing != null && !Files.exists(existing)) existing = existing.getParent();
        if (existing == null) return null;
        if (!Files.isDirectory(existing)) {
            return "'" + shown(existing, cwd) + "' is a file, not a folder, so nothing can be created under it";
        }
        if (!Files.isWritable(existing)) {
            return "permission denied: files cannot be created in '" + shown(existing, cwd) + "'";
        }
        if (Files.exists(target) && Files.isRegularFile(target) && !Files.isWritable(target)) {
            return "permission denied: the file is read-only";
        }
        return null;
    }

    private static String shown(Path p, Path cwd) {
        Path c = cwd.toAbsolutePath().normalize();
        return p.startsWith(c) && !p.equals(c) ? c.relativize(p).toString() : p.toString();
    }

    /** Renders to a file (--output, --write-baseline); {@code name} names it in messages ("--output x.sarif"). */
    static void toFile(Renderer r, LintResult result, Path target, String name) throws Failure {
        toFile(w -> r.render(result, w), target, name);
    }

    /** Writes {@code text} to a file as a report is written (plan --output, discover --output). */
    static void toFile(String text, Path target, String name) throws Failure {
        toFile(w -> w.write(text), target, name);
    }

    /** What a file is written with. */
    interface Body {
        void write(Writer w) throws IOException;
    }

    /**
     * Why {@code target} must not be written, or null: it is one of {@code inputs} (by path or through a link), as
     * {@code discover -o node.ibstat.txt node.ibstat.txt} would replace the capture with the manifest read from it.
     */
    static String overInput(Path target, java.util.Collection<Path> inputs) {
        if (!Files.isRegularFile(target)) return null;
        for (Path p : inputs) {
            try {
                if (Files.exists(p) && Files.isSameFile(target, p)) return "it is an input of this run (" + p + ")";
            } catch (IOException e) {
                // a file that cannot be compared is not the target
            }
        }
        return null;
    }

    /** Writes a file whole: a temporary file beside it, moved over it; a device or pipe named on purpose is written in place. */
    static void toFile(Body body, Path target, String name) throws Failure {
        if (Files.isDirectory(target)) throw new Failure("cannot write " + name + ": it is a folder, not a file");
        try {
            // a link to a report file: the file it names is replaced, not the link
            Path abs = Files.isSymbolicLink(target) && Files.exists(target) ? target.toRealPath() : target.toAbsolutePath();
            Path parent = abs.getParent();
            if (Files.exists(target) && !Files.isRegularFile(target)) {
                // a device or a pipe the user named on purpose (/dev/stdout): written in place
                try (OutputStream os = Files.newOutputStream(target);
                     Writer w = new OutputStreamWriter(os, StandardCharsets.UTF_8)) {
                    body.write(w);
                }
                return;
            }
            if (parent != null) Files.createDirectories(parent);
            Path tmp = dev.gpulint.core.TempFiles.create(parent, abs.getFileName().toString(), ".tmp");
            try {
                keepPermissions(tmp, abs);
                try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                    body.write(w);
                }
                try {
                    Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (java.nio.file.AtomicMoveNotSupportedException e) {
                    Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                dev.gpulint.core.TempFiles.done(tmp);
            }
        } catch (FileAlreadyExistsException | NotDirectoryException e) {
            throw new Failure("cannot write " + name + ": a part of its folder path is a file, not a folder");
        } catch (java.nio.file.FileSystemException e) {
            // "Not a directory" (ENOTDIR), "Read-only file system" (EROFS) and the like, without the raw path
            throw new Failure("cannot write " + name + ": " + (e instanceof AccessDeniedException ? "permission denied"
                    : e.getReason() != null ? lower(e.getReason()) : reason(e)));
        } catch (IOException e) {
            throw new Failure("cannot write " + name + ": " + reason(e));
        }
    }

    /** A temporary file is private (rw-------); the report gets the target's permissions, or rw-r--r--. */
    private static void keepPermissions(Path tmp, Path target) throws IOException {
        if (!tmp.getFileSystem().supportedFileAttributeViews().contains("posix")) return;
        Files.setPosixFilePermissions(tmp, Files.exists(target) ? Files.getPosixFilePermissions(target)
                : java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    }

    private static String lower(String s) {
        return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    static String reason(IOException e) {
        if (e instanceof AccessDeniedException) return "permission denied";
        if (e instanceof NoSuchFileException) return "no such folder";
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }
}
