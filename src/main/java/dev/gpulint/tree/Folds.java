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

    void add(MappingNode representative, Fold f) {
        if (this == NONE) throw new IllegalStateException("Folds.NONE is empty for good");
        byRepresentative.put(representative, f);
        all.add(f);
    }
}
