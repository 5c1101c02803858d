package dev.gpulint.lint;

import dev.gpulint.core.Finding;
import dev.gpulint.core.RegularFiles;
import dev.gpulint.core.Span;
import dev.gpulint.read.SourceFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A file's bytes as a manifest's text, for {@link Discovery}: regular files only, never more than the
 * maximum file size (counted while reading), no NUL bytes, UTF-8 (a byte-order mark dropped); every
 * failure a SYN001 finding naming the file.
 */
final class FileText {
    private FileText() {}

    static String human(long bytes) {
        if (bytes >= 1L << 20) return dev.gpulint.spec.Quantities.format(bytes / (double) (1L << 20)) + " MiB";
        if (bytes >= 1L << 10) return dev.gpulint.spec.Quantities.format(bytes / (double) (1L << 10)) + " KiB";
        return bytes + " bytes";
    }

    /** A file's text, or empty with a finding in {@code sink} (too large, not regular, binary, not UTF-8, unreadable). */
    static Optional<SourceFile> load(Path p, String name, long maxFileSize, List<Finding> sink) {
        try {
            long size = Files.size(p);
            if (size > maxFileSize) throw new RegularFiles.TooLarge(maxFileSize);
            // the size a file system reports can lie (/proc, a growing file): the read itself is bounded
            return decode(p, name, RegularFiles.read(p, maxFileSize), sink);
        } catch (RegularFiles.TooLarge e) {
            long size = sizeOf(p);
            sink.add(Finding.of("SYN001", Span.at(name, 1, 1), "io", "'" + name + "' is "
                    + (size > maxFileSize ? human(size) + ", " : "") + "more than the " + human(maxFileSize)
                    + " gpulint reads per file (manifests are kilobytes); exclude it, or raise the limit with --max-file-size"));
        } catch (RegularFiles.NotRegular e) {
            sink.add(Finding.of("SYN001", Span.at(name, 1, 1), "io", "cannot read '" + name + "': " + e.getMessage()
                    + "; gpulint reads regular files only"));
        } catch (IOException e) {
            sink.add(Finding.of("SYN001", Span.at(name, 1, 1), "io", "cannot read '" + name + "': " + Discovery.reason(e)));
        }
        return Optional.empty();
    }

    /** Bytes as a manifest's text: no NUL bytes, UTF-8, a byte-order mark dropped. */
    static Optional<SourceFile> decode(Path p, String name, byte[] bytes, List<Finding> sink) {
        boolean ascii = true;
        for (byte b : bytes) {
            if (b == 0) {
                sink.add(Finding.of("SYN001", Span.at(name, 1, 1), "io", "'" + name + "' is a binary file (it contains NUL bytes), not a manifest"));
                return Optional.empty();
            }
            if (b < 0) ascii = false;
        }
        // ASCII is UTF-8 as it is: straight to a String, without the decoder's char buffer (twice the file's size)
        if (ascii) return Optional.of(new SourceFile(p, name, new String(bytes, StandardCharsets.US_ASCII)));
        try {
            String text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
            if (text.startsWith("\uFEFF")) text = text.substring(1);
            return Optional.of(new SourceFile(p, name, text));
        } catch (CharacterCodingException e) {
            sink.add(Finding.of("SYN001", Span.at(name, 1, 1), "io", "'" + name + "' is not UTF-8 text; gpulint reads UTF-8 manifests only"));
            return Optional.empty();
        }
    }

    private static long sizeOf(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return -1;
        }
    }
}
