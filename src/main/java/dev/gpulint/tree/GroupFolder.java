package dev.gpulint.tree;

import dev.gpulint.core.Fold;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Folds the items of one long list as a reader finishes them: an item written exactly like an earlier one
 * (same keys, texts and quoting, in the same order), its {@code name} value and places apart, becomes a
 * member of that earlier item's {@link Fold} instead of a subtree of its own. The reader then leaves it out
 * of the list. Only items after the first {@link #FOLD_FROM} of a list fold: a manifest a person writes keeps every
 * item as written; a fleet inventory that lists a node group per node is held as its few distinct shapes.
 *
 * <p>Bounded: at most {@link #MAX_SHAPES} distinct items per list are remembered, an item whose written
 * form is longer than {@link #MAX_KEY} characters never folds, and at most {@link #MAX_SHAPES} distinct
 * layouts are shared (a member with another keeps its own). Linear: each item is walked once.
 */
public final class GroupFolder {
    /** The list items before this one (0-based) never fold into an earlier one. */
    public static final int FOLD_FROM = 1000;

    private static volatile int threshold = FOLD_FROM;

    /**
     * Folds from another item on, until the returned handle is closed: tests fold short lists to compare
     * every output with the unfolded one. Not for concurrent use.
     */
    public static AutoCloseable foldFrom(int item) {
        int before = threshold;
        threshold = item;
        return () -> threshold = before;
    }
    public static final int MAX_SHAPES = 10_000;
    public static final int MAX_KEY = 4096;

    /** Fold numbers: unique in the process, so that tokens of files read in parallel never meet. */
    private static final AtomicInteger NUMBERS = new AtomicInteger();

    private final String file;
    private final Folds folds;
    private final int foldFrom;
    private final Map<String, Shape> shapes = new HashMap<>();
    private final Map<Layout, int[]> layouts = new HashMap<>();
    private int position;
    /** Mapping items kept in the list so far: the binder builds a node group of each, in this order. */
    private int kept;

    /** An item other items may fold into. */
    private static final class Shape {
        final MappingNode item;
        final String name;
        final int line, before, place;
        final int[] layout;
        Fold fold;

        Shape(MappingNode item, String name, int line, int before, int place, int[] layout) {
            this.item = item;
            this.name = name;
            this.line = line;
            this.before = before;
            this.place = place;
            this.layout = layout;
        }
    }

    private record Layout(int[] positions) {
        @Override public boolean equals(Object o) { return o instanceof Layout l && Arrays.equals(positions, l.positions); }
        @Override public int hashCode() { return Arrays.hashCode(positions); }
    }

    public GroupFolder(String file, Folds folds) {
        this.file = file;
        this.folds = folds;
        this.foldFrom = threshold;
    }

    /** Takes the next item of the list; true when it was folded into an earlier one, and is to be left out. */
    public boolean offer(Node item) {
        int at = position++;
        if (item instanceof MappingNode m) {
            if (fold(m, at)) {
                folded++;
                return true;
            }
            kept++;
        }
        if (folded > 0) folds.kept(at - folded, at);
        return false;
    }

    /** Items folded away so far. */
    private int folded;

    private boolean fold(MappingNode m, int at) {
        if (m.span() == null || !m.span().file().equals(file)) return false;
        ScalarNode name = name(m);
        if (name == null) return false;
        Walk w = new Walk(m.span(), name);
        if (!w.node(m) || w.outside || w.key.length() > MAX_KEY) return false;
        points.coincidences(w);
        String key = w.key.toString();
        Shape shape = shapes.get(key);
        if (shape == null || at < foldFrom) {
            if (shape == null && shapes.size() < MAX_SHAPES) {
                shapes.put(key, new Shape(m, name.text(), m.span().startLine(), kept, at, w.layout()));
            }
            return false;
        }
        if (shape.fold == null) {
            shape.fold = new Fold(NUMBERS.incrementAndGet(), shape.item.span(), shape.name, file, shape.line, shape.before, shape.place, shape.layout);
            folds.add(shape.item, shape.fold);
        }
        int[] layout = w.layout();
        int[] shared = layouts.get(new Layout(layout));
        if (shared == null && layouts.size() < MAX_SHAPES) layouts.put(new Layout(layout), shared = layout);
        shape.fold.add(name.text(), m.span().startLine(), kept, at, shared != null ? shared : layout);
        return true;
    }

    /** The item's name: the value of its first {@code name} key, when that is a text. */
    private static ScalarNode name(MappingNode m) {
        for (MappingNode.Entry e : m.entries()) {
            if (!e.key().text().equals("name")) continue;
            return e.value() instanceof ScalarNode s && !s.isNull() && s.startLine() != 0 ? s : null;
        }
        return null;
    }

    /** One item's written form without its name and places (the key), and its places (the layout). */
    private static final class Walk {
        final StringBuilder key = new StringBuilder(256);
        private int[] positions = new int[64];
        private int n;
        /** A node lies outside the item: it does not fold. */
        private boolean outside;
        private final int base;
        private final dev.gpulint.core.Span item;
        private final ScalarNode name;

        Walk(dev.gpulint.core.Span item, ScalarNode name) {
            this.base = item.startLine();
            this.item = item;
            this.name = name;
        }

        /** False when a node has no place (it cannot be placed in a member). */
        boolean node(Node node) {
            if (node instanceof ScalarNode s) {
                if (s.startLine() == 0) return false;
                place(s.startLine(), s.startColumn(), s.endLine(), s.endColumn());
                key.append(s.quoted() ? '"' : '\'');
                if (s != name) key.append(s.text().length()).append(':').append(s.text());
                return true;
            }
            dev.gpulint.core.Span sp = node.span();
            if (sp == null) return false;
            place(sp.startLine(), sp.startColumn(), sp.endLine(), sp.endColumn());
            if (node instanceof ListNode l) {
                key.append('[');
                for (Node item : l.items()) if (!node(item)) return false;
                key.append(']');
                return true;
            }
            key.append('{');
            List<MappingNode.Entry> entries = ((MappingNode) node).entries();
            // a key written twice: the binder's message says on which line the first is, so the item is kept whole
            if (entries.size() > 1 && duplicateKey(entries)) return false;
            for (MappingNode.Entry e : entries) {
                if (!node(e.key()) || !node(e.value())) return false;
            }
            key.append('}');
            return key.length() <= MAX_KEY;
        }

        /**
         * False for a node outside the item (a YAML alias keeps its anchor's places): the item's places are then
         * not its own, and a member's could not be found through them.
         */
        private void place(int startLine, int startColumn, int endLine, int endColumn) {
            if (!item.covers(startLine, startColumn) || !item.covers(endLine, endColumn)) outside = true;
            if (n + 4 > positions.length) positions = Arrays.copyOf(positions, positions.length * 2);
            positions[n++] = startLine - base;
            positions[n++] = startColumn;
            positions[n++] = endLine - base;
            positions[n++] = endColumn;
        }

        int[] layout() { return Arrays.copyOf(positions, n); }

        private static boolean duplicateKey(List<MappingNode.Entry> entries) {
            if (entries.size() > 16) {
                java.util.Set<String> seen = new java.util.HashSet<>();
                for (MappingNode.Entry e : entries) if (!seen.add(e.key().text())) return true;
                return false;
            }
            for (int i = 1; i < entries.size(); i++) {
                for (int j = 0; j < i; j++) if (entries.get(i).key().text().equals(entries.get(j).key().text())) return true;
            }
            return false;
        }
    }

    private final Points points = new Points();

    /**
     * Which of an item's places coincide (a block mapping starts where its first key does; a flow one does not).
     * A member's places are found through the representative's ({@link Fold#span}), which needs the same places
     * to coincide in both: the pattern joins the item's key. Reused for every item of the list.
     */
    private static final class Points {
        private long[] keys = new long[1024];
        private int[] first = new int[1024];
        private int[] stamps = new int[1024];
        private int stamp;

        void coincidences(Walk w) {
            int points = w.n / 2;
            if (points * 2 > keys.length) {
                int size = Integer.highestOneBit(points * 4);
                keys = new long[size];
                first = new int[size];
                stamps = new int[size];
            }
            stamp++;
            int mask = keys.length - 1;
            for (int k = 0; k < points; k++) {
                long p = ((long) w.positions[2 * k] << 32) | (w.positions[2 * k + 1] & 0xffffffffL);
                int h = (Long.hashCode(p) * 0x9E3779B9) & mask;
                while (stamps[h] == stamp && keys[h] != p) h = (h + 1) & mask;
                if (stamps[h] == stamp) {
                    w.key.append('@').append(k).append('=').append(first[h]);
                } else {
                    stamps[h] = stamp;
                    keys[h] = p;
                    first[h] = k;
                }
            }
        }
    }
}
