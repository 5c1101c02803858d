package dev.gpulint.tree;

import dev.gpulint.core.Fold;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/** The {@link Fold}s of one document, by representative. */
public final class Folds {
    public static final Folds NONE = new Folds();

    private final Map<MappingNode, Fold> byRepresentative = new IdentityHashMap<>();
    private final List<Fold> all = new ArrayList<>();

    /** The fold {@code item} represents, null when it stands only for itself. */
    public Fold of(MappingNode item) {
        return byRepresentative.isEmpty() ? null : byRepresentative.get(item);
    }

    /** Every fold, in the order their first member was met. */
    public List<Fold> all() { return List.copyOf(all); }

    public boolean isEmpty() { return all.isEmpty(); }

    /** Kept items before this index sit where they were written; from it on, {@link #places} says where. */
    private int base = -1;
    private int[] places = new int[16];
    private int placed;

    /**
     * Where the folding list's kept item {@code kept} (0-based among the items left in the tree) was written
     * among all its items: the binder numbers items without a name by it.
     */
    public int place(int kept) {
        if (base < 0 || kept < base) return kept;
        int i = kept - base;
        return i < placed ? places[i] : kept;
    }

    /** The folding list kept its item {@code kept}, written as item {@code place} (called once something folded). */
    void kept(int kept, int place) {
        if (base < 0) base = kept;
        if (placed == places.length) places = java.util.Arrays.copyOf(places, placed * 2);
        places[placed++] = place;
    }

    void add(MappingNode representative, Fold f) {
        if (this == NONE) throw new IllegalStateException("Folds.NONE is empty for good");
        byRepresentative.put(representative, f);
        all.add(f);
    }
}
