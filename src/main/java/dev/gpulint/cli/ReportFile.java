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
    static final class Failure extends Exception {
        Failure(String message) { super(message); }
    }

    private ReportFile() {}

    /** Renders to a PrintWriter (standard output) and checks that every byte got out. */
    static void toStream(Renderer r, LintResult result, PrintWriter out, String what) throws Failure {
        Writer w = new java.io.BufferedWriter(out);
        try {
            r.render(result, w);
            w.flush();
        } catch (IOException e) {
            throw new Failure("cannot write the report to " + what + ": " + reason(e));
        }
        if (out.checkError()) throw new Failure("cannot write the report to " + what + " (the write failed)");
    }

    /** Renders to a file (--output, --write-baseline). */
    static void toFile(Renderer r, LintResult result, Path target, String option) throws Failure {
        String name = option + " " + target;
        if (Files.isDirectory(target)) throw new Failure("cannot write " + name + ": it is a folder, not a file");
        try {
            // a link to a report file: the file it names is replaced, not the link
            Path abs = Files.isSymbolicLink(target) && Files.exists(target) ? target.toRealPath() : target.toAbsolutePath();
            Path parent = abs.getParent();
            if (Files.exists(target) && !Files.isRegularFile(target)) {
                // a device or a pipe the user named on purpose (/dev/stdout): written in place
                try (OutputStream os = Files.newOutputStream(target);
                     Writer w = new OutputStreamWriter(os, StandardCharsets.UTF_8)) {
                    r.render(result, w);
                }
                return;
            }
            if (parent != null) Files.createDirectories(parent);
            Path tmp = Files.createTempFile(parent, "." + abs.getFileName() + ".", ".tmp");
            try {
                keepPermissions(tmp, abs);
                try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                    r.render(result, w);
                }
                try {
                    Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (java.nio.file.AtomicMoveNotSupportedException e) {
                    Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (FileAlreadyExistsException | NotDirectoryException e) {
            throw new Failure("cannot write " + name + ": a part of its folder path is a file, not a folder");
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

    static String reason(IOException e) {
        if (e instanceof AccessDeniedException) return "permission denied";
        if (e instanceof NoSuchFileException) return "no such folder";
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }
}
