package dev.gpulint.read;

import java.nio.file.Path;

/**
 * A file to lint: the path as the user gave it (used in every message), and
 * its text. {@code displayPath} uses '/' separators so output is the same on
 * every platform.
 */
public record SourceFile(Path path, String displayPath, String text) {
    public static SourceFile of(String displayPath, String text) {
        return new SourceFile(Path.of(displayPath), displayPath, text);
    }
}
