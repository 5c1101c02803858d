package dev.gpulint.lint;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The texts that stand for files in one run, whoever put them there: an editor's unsaved buffers (the language server)
 * and the texts the fix loop fixed in memory (check --fix and --diff lint each pass before anything is written). One
 * map, one key: the file's absolute, normalised path ({@link #key}). The run reads an overlaid text wherever it meets
 * the file (named, walked, included, looked up as a job's cluster, the configuration, standard input under its
 * --stdin-filename), instead of the disk's, and a file that is not on the disk is linted from it. Immutable.
 */
public final class Overlay {
    /** No text overlaid: every file as the disk holds it. */
    public static final Overlay NONE = new Overlay(Map.of());

    private final Map<Path, String> texts;

    private Overlay(Map<Path, String> texts) {
        this.texts = Map.copyOf(texts);
    }

    /** The key of {@code p}: absolute (a relative path against {@code base}, the run's base folder) and normalised. */
    public static Path key(Path base, Path p) {
        return base.resolve(p).toAbsolutePath().normalize();
    }

    /** {@code texts} by path (relative ones against {@code base}); of two paths of one key, the later text wins. */
    public static Overlay of(Path base, Map<Path, String> texts) {
        return NONE.with(base, texts);
    }

    /** This overlay with {@code more} texts by path (relative ones against {@code base}), which win over this one's. */
    public Overlay with(Path base, Map<Path, String> more) {
        if (more.isEmpty()) return this;
        Map<Path, String> all = new LinkedHashMap<>(texts);
        more.forEach((p, text) -> all.put(key(base, p), text));
        return new Overlay(all);
    }

    /** The text standing for the file of {@code key} ({@link #key}), or null when the disk's stands. */
    public String text(Path key) {
        return texts.isEmpty() ? null : texts.get(key);
    }

    /** Whether a text stands for the file of {@code key}. */
    public boolean has(Path key) {
        return texts.containsKey(key);
    }

    public boolean isEmpty() {
        return texts.isEmpty();
    }

    /** The texts by key. */
    public Map<Path, String> texts() {
        return texts;
    }

    @Override public boolean equals(Object o) {
        return o instanceof Overlay other && texts.equals(other.texts);
    }

    @Override public int hashCode() {
        return texts.hashCode();
    }

    @Override public String toString() {
        return "Overlay" + texts.keySet();
    }
}
