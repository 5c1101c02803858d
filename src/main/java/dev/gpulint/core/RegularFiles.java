package dev.gpulint.core;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;

/**
 * Reads files of unknown origin: regular files only (a FIFO would block the run forever, a device
 * such as /dev/zero never ends), and never more than a bound, counted while reading (a file's
 * reported size can lie: /proc files say 0, a growing file says less).
 */
public final class RegularFiles {
    private RegularFiles() {}

    /** The path is a folder, a FIFO, a device or a socket. */
    public static final class NotRegular extends IOException {
        public NotRegular(String message) { super(message); }
    }

    /** The file has more bytes than the bound. */
    public static final class TooLarge extends IOException {
        private final long limit;

        public TooLarge(long limit) {
            super("more than " + limit + " bytes");
            this.limit = limit;
        }

        public long limit() { return limit; }
    }

    /** What a path that is not a regular file is, in words ("a FIFO (named pipe)", "a device"...). */
    public static String kind(BasicFileAttributes a) {
        if (a.isDirectory()) return "a folder";
        if (a.isSymbolicLink()) return "a symbolic link";
        return "a special file (a device, FIFO or socket)";
    }

    /** Throws {@link NotRegular} unless the path (links followed) is a regular file. */
    public static void requireRegular(Path p) throws IOException {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
        if (!a.isRegularFile()) throw new NotRegular("it is " + kind(a) + ", not a regular file");
    }

    /** A regular file's bytes, at most {@code limit} of them ({@link TooLarge} past that). */
    public static byte[] read(Path p, long limit) throws IOException {
        requireRegular(p);
        try (InputStream in = Files.newInputStream(p)) {
            return read(in, limit);
        }
    }

    /** A stream's bytes (standard input), at most {@code limit} of them ({@link TooLarge} past that), counted while reading. */
    public static byte[] read(InputStream in, long limit) throws IOException {
        if (limit < 0 || limit > MAX_ARRAY - 1) throw new IllegalArgumentException("a read limit of " + limit + " bytes");
        // one byte more than the limit is read, to tell "exactly the limit" from "more"
        byte[] buf = new byte[(int) Math.min(8192, limit + 1)];
        int n = 0;
        while (true) {
            if (n == buf.length) {
                if (n > limit) throw new TooLarge(limit);
                buf = Arrays.copyOf(buf, (int) Math.min(limit + 1, 2L * n));
            }
            int r = in.read(buf, n, buf.length - n);
            if (r < 0) break;
            n += r;
            if (n > limit) throw new TooLarge(limit);
        }
        return Arrays.copyOf(buf, n);
    }

    /** A regular file's UTF-8 text, at most {@code limit} bytes of it (malformed UTF-8 is an error, as for Files.readString). */
    public static String readString(Path p, long limit) throws IOException {
        return java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                .decode(java.nio.ByteBuffer.wrap(read(p, limit))).toString();
    }

    /**
     * The largest --max-file-size: 1 GiB. A file is read whole into one array and decoded into one
     * string (2 bytes a character), so a larger limit could not be honoured by the JVM anyway.
     */
    public static final long MAX_MAX_FILE_SIZE = 1L << 30;

    /** Why a --max-file-size of {@code bytes} cannot be used (below 1 byte, above 1 GiB), or null. */
    public static String maxFileSizeProblem(double bytes) {
        if (!(bytes >= 1)) return "the limit must be at least 1 byte (e.g. 100 KiB, 8 MiB)";
        if (bytes > MAX_MAX_FILE_SIZE) {
            return "the limit can be at most 1 GiB (files are read whole into memory; manifests are kilobytes)";
        }
        return null;
    }

    /** The longest byte array the JVM makes (a little below Integer.MAX_VALUE). */
    static final long MAX_ARRAY = Integer.MAX_VALUE - 8L;

    /** The bound for files gpulint reads besides the linted ones (configuration, rules, baseline): 64 MiB. */
    public static final long SIDE_FILE_LIMIT = 64L << 20;
}
