package dev.gpulint.core;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * List items written exactly like an earlier one, their names and places apart: a fleet inventory lists
 * a million node groups that differ only in name. The document tree keeps the first of them, the
 * representative; each later one, a member, is kept as its name, the line it starts on and where each of
 * its nodes starts and ends (the tree package's GroupFolder). Binding, derive and the rules then see one node group, whose
 * name is {@link #token()}; a finding about it is written once per member ({@link #name(int)},
 * {@link #span(Span, int)}), and other texts name the representative.
 *
 * <p>Member 0 is the representative itself; members 1.. follow in source order.
 */
public final class Fold {
    /** Private-use characters around the fold's number: text no manifest writes. */
    public static final char OPEN = '\uE000', CLOSE = '\uE001';

    /**
     * A random part of every token of the process: input may hold the private-use characters, but not a token
     * (its text would otherwise be taken for a fold's and replaced).
     */
    private static final String SALT = Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong() | Long.MIN_VALUE) + ":";

    private final Span representative;
    private final String token;
    private final String file;
    /** Where the representative's nodes start and end, in the GroupFolder's order: line from its first line, column. */
    private final int[] layout;
    private int[] lines;
    /** Per member: how many mapping items its list kept before it, and its place among all the list's items. */
    private int[] before, places;
    private int[][] layouts;
    private String[] names;
    private int size;
    private Map<Long, Integer> index;

    public Fold(int number, Span representative, String name, String file, int line, int before, int place, int[] layout) {
        this.representative = representative;
        this.token = OPEN + SALT + Integer.toString(number) + CLOSE;
        this.file = file;
        this.layout = layout;
        this.names = new String[] {name, null};
        this.lines = new int[] {line, 0};
        this.before = new int[] {before, 0};
        this.places = new int[] {place, 0};
        this.layouts = new int[][] {layout, null};
        this.size = 1;
    }

    public void add(String name, int line, int before, int place, int[] memberLayout) {
        if (size == names.length) {
            names = Arrays.copyOf(names, size * 2);
            lines = Arrays.copyOf(lines, size * 2);
            this.before = Arrays.copyOf(this.before, size * 2);
            places = Arrays.copyOf(places, size * 2);
            layouts = Arrays.copyOf(layouts, size * 2);
        }
        names[size] = name;
        lines[size] = line;
        this.before[size] = before;
        places[size] = place;
        layouts[size] = memberLayout;
        size++;
    }

    /** Where the representative is written. */
    public Span representative() { return representative; }

    /** The name binding gives the representative: it stands for every member. */
    public String token() { return token; }

    /** How many node groups it stands for, the representative included. */
    public int size() { return size; }

    /** Member {@code i}'s name (0: the representative's own). */
    public String name(int i) { return names[check(i)]; }

    /**
     * Member {@code i}'s place in its list: how many of the mapping items the list kept come before it (the
     * representative is the one at that index), then its index among all the list's items.
     */
    public long order(int i) {
        check(i);
        return ((long) before[i] << 32) | places[i];
    }

    private int check(int i) {
        if (i < 0 || i >= size) throw new IndexOutOfBoundsException(i);
        return i;
    }

    /**
     * Where member {@code i} has what the representative has at {@code s}: each end that is where one of the
     * representative's nodes starts or ends moves to the member's same node; any other end keeps its
     * column and moves by the member's lines. A span outside the representative, or in another file, stays.
     */
    public Span span(Span s, int i) {
        if (s == null || i == 0 || !contains(s)) return s;
        int[] to = layouts[check(i)];
        int base = lines[0], line = lines[i];
        long start = move(s.startLine() - base, s.startColumn(), to, line);
        long end = move(s.endLine() - base, s.endColumn(), to, line);
        return new Span(s.file(), (int) (start >> 32), (int) start, (int) (end >> 32), (int) end);
    }

    /** Whether {@code s} lies within the representative. */
    public boolean contains(Span s) {
        // by start and end positions alone: a span that starts where the item starts is inside it (its first key)
        return s != null && s.file().equals(file) && representative.covers(s.startLine(), s.startColumn())
                && representative.covers(s.endLine(), s.endColumn());
    }

    private long move(int relLine, int col, int[] to, int line) {
        Integer k = index().get(key(relLine, col));
        if (k == null) return ((long) (line + relLine) << 32) | (col & 0xffffffffL);
        return ((long) (line + to[2 * k]) << 32) | (to[2 * k + 1] & 0xffffffffL);
    }

    private Map<Long, Integer> index() {
        if (index == null) {
            Map<Long, Integer> m = new HashMap<>();
            for (int k = 0; k < layout.length / 2; k++) m.putIfAbsent(key(layout[2 * k], layout[2 * k + 1]), k);
            index = m;
        }
        return index;
    }

    private static long key(int relLine, int col) { return ((long) relLine << 32) | (col & 0xffffffffL); }

    /** Whether {@code text} holds the characters tokens are made of (a token, or input that holds them). */
    public static boolean marked(String text) {
        return text != null && text.indexOf(OPEN) >= 0;
    }

    /** {@code text} with this fold's token replaced by member {@code i}'s name. */
    public String named(String text, int i) {
        return text == null ? null : text.replace(token, name(i));
    }
}
