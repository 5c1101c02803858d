package dev.gpulint.bind;

import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The keys of a mapping that are written with a placeholder ({@link Binder#placeholder}): stated,
 * but with a value nobody knows yet. The binder leaves such a value out like an absent one; this
 * keeps the difference, so that a size written as {@code ${TP}} does not take the default of an
 * absent size.
 */
public final class Unknowns {
    private Unknowns() {}

    /** Which of {@code keys} hold a placeholder in {@code m} (empty when m is null). */
    public static Set<String> in(MappingNode m, String... keys) {
        Set<String> out = new LinkedHashSet<>();
        if (m == null) return out;
        for (String k : keys) {
            if (m.get(k).orElse(null) instanceof ScalarNode s && !s.isNull() && Binder.placeholder(s.text())) out.add(k);
        }
        return out;
    }
}
