package dev.gpulint.core;

import java.util.HashMap;
import java.util.Map;

/**
 * One String per distinct text, for texts that repeat once per node group: a fleet file lists a
 * million node groups that say the same thing, and their facts and findings would otherwise hold a
 * million equal copies of each sentence. Bounded: past {@code max} distinct texts, new ones are
 * returned as they are (still correct, only no longer shared). One per run, never static; not
 * thread-safe (a caller that shares one locks it).
 */
public final class Interner {
    private final Map<String, String> texts = new HashMap<>();
    private final int max, maxLength;

    /** @param max the most distinct texts kept */
    public Interner(int max) { this(max, Integer.MAX_VALUE); }

    /** @param maxLength the longest text shared (longer ones are returned as they are: they seldom repeat) */
    public Interner(int max, int maxLength) {
        this.max = max;
        this.maxLength = maxLength;
    }

    /** The shared copy of {@code text}; null for null. */
    public String of(String text) {
        if (text == null || text.length() > maxLength) return text;
        String known = texts.get(text);
        if (known != null) return known;
        if (texts.size() < max) texts.put(text, text);
        return text;
    }
}
