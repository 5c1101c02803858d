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

    /** The next number in input order. */
    public int ordinal() { return ordinal++; }

    public List<Object> list() { return List.copyOf(facts); }
}
