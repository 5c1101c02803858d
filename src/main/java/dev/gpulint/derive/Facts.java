package dev.gpulint.derive;

import java.util.ArrayList;
import java.util.List;

/**
 * What the analyses emit, in order: the facts the rules match. Write-only for the analyses
 * (nothing reads a fact back); {@link #ordinal()} numbers facts whose rules need "the first of"
 * (SYN004, UNIT002).
 */
public final class Facts {
    private final List<Object> facts = new ArrayList<>();
    private int ordinal;

    public void add(Object fact) { facts.add(fact); }

    private final dev.gpulint.core.Interner texts = new dev.gpulint.core.Interner(10_000);

    /** One String per distinct text of the run's facts ({@link dev.gpulint.core.Interner}). */
    public String shared(String text) { return texts.of(text); }

    /** The next number in input order. */
    public int ordinal() { return ordinal++; }

    public List<Object> list() { return List.copyOf(facts); }

    private final java.util.Map<java.util.List<String>, dev.gpulint.core.Span> firstOfName = new java.util.HashMap<>();

    /**
     * Where the first {@code kind} named {@code name} is written, when one came before this one; null
     * for the first (and for no name). One lookup per fact, so duplicate names (SYN004) cost no
     * pairwise join in the rules, however many facts share a name.
     */
    public dev.gpulint.core.Span earlierOfName(String kind, String name, dev.gpulint.core.Span at) {
        if (name == null) return null;
        dev.gpulint.core.Span first = firstOfName.putIfAbsent(java.util.List.of(kind, name), at);
        return first;
    }
}
