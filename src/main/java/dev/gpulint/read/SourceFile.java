package dev.gpulint.read;

import java.nio.file.Path;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A file to lint: the path as the user gave it (used in every message), and
 * its text. {@code displayPath} uses '/' separators so output is the same on
 * every platform.
 */
public record SourceFile(Path path, String displayPath, String text) {
    public static SourceFile of(String displayPath, String text) {
        return new SourceFile(Path.of(displayPath), displayPath, text);
    }

    /**
     * {@code files} by display path, in their order, leaving out the display paths in {@code except} (context
     * files): the first file of a display path stands for it, as the linter reads it (lint.ProjectRun's sources).
     */
    public static Map<String, SourceFile> byDisplayPath(Collection<SourceFile> files, Set<String> except) {
        Map<String, SourceFile> out = new LinkedHashMap<>();
        for (SourceFile f : files) if (!except.contains(f.displayPath())) out.putIfAbsent(f.displayPath(), f);
        return Collections.unmodifiableMap(out);
    }

    /**
     * The texts of {@link #byDisplayPath}: what fixes are placed in (fix.FixSettings for the rules' fixes,
     * plan.LayoutFixes for the plan's), so every fix edits the text that was linted, never a context file's.
     */
    public static Map<String, String> texts(Collection<SourceFile> files, Set<String> except) {
        Map<String, String> out = new LinkedHashMap<>();
        byDisplayPath(files, except).forEach((path, f) -> out.put(path, f.text()));
        return Collections.unmodifiableMap(out);
    }
}
