package dev.gpulint.fix;

import dev.gpulint.read.SourceFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes fixed texts back ({@code check --fix}), only to the files the run linted and read the text of: never
 * standard input, a context file or anything else. Each file is written whole and atomically (a temporary file
 * beside it, then renamed over it: a reader sees the old text or the new one, never half), with its permissions
 * and its byte-order mark kept. A file whose text changed on disk since it was read is left alone and said so.
 */
public final class FixWriter {
    private FixWriter() {}

    /** Writes {@code after}'s texts; returns one sentence per file not written (why). */
    public static List<String> write(FixLoop.Result r) {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, String> e : r.after().entrySet()) {
            String shown = e.getKey();
            SourceFile src = r.sources().get(shown);
            if (src == null || shown.equals(r.stdin())) continue;       // never standard input
            try {
                write(src.path(), r.before().get(shown), e.getValue());
            } catch (Changed c) {
                problems.add("did not fix " + shown + ": it changed on disk while gpulint read it; run gpulint --fix again");
            } catch (IOException x) {
                problems.add("cannot write the fixes to " + shown + ": " + reason(x));
            }
        }
        return problems;
    }

    private static String reason(IOException e) {
        if (e instanceof java.nio.file.AccessDeniedException) return "permission denied";
        if (e instanceof java.nio.file.NoSuchFileException) return "no such file";
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static final class Changed extends IOException {
        Changed() { super("changed"); }
    }

    private static void write(Path at, String before, String after) throws IOException {
        Path real = at.toRealPath();        // through a link: the file it names is the one linted
        if (!Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS)) throw new IOException("not a regular file");
        byte[] bytes = Files.readAllBytes(real);
        boolean bom = bytes.length >= 3 && (bytes[0] & 0xff) == 0xEF && (bytes[1] & 0xff) == 0xBB && (bytes[2] & 0xff) == 0xBF;
        String now = new String(bytes, bom ? 3 : 0, bytes.length - (bom ? 3 : 0), StandardCharsets.UTF_8);
        if (!now.equals(before)) throw new Changed();
        byte[] text = after.getBytes(StandardCharsets.UTF_8);
        byte[] out = text;
        if (bom) {
            out = new byte[text.length + 3];
            out[0] = (byte) 0xEF; out[1] = (byte) 0xBB; out[2] = (byte) 0xBF;
            System.arraycopy(text, 0, out, 3, text.length);
        }
        Path tmp = Files.createTempFile(real.getParent(), "." + real.getFileName() + ".", ".gpulint-fix");
        try {
            Files.write(tmp, out);
            try {
                Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(real));
            } catch (UnsupportedOperationException | IOException ignored) {
                // a file system without POSIX permissions keeps its own defaults
            }
            try {
                Files.move(tmp, real, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, real, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
