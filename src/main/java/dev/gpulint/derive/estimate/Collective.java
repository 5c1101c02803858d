package dev.gpulint.derive.estimate;

import java.util.Locale;

/**
 * An NCCL collective and the bytes it moves per rank (nccl-tests doc/PERFORMANCE.md, hardware-facts §7): an
 * all-reduce 2(n − 1)/n · S (a reduce-scatter and an all-gather), a reduce-scatter, all-gather or all-to-all
 * (n − 1)/n · S, S being the bytes each rank holds (an all-to-all's: the bytes each rank sends to all the others and
 * itself); a send (a pipeline boundary, a context-parallel ring step) S.
 */
public enum Collective {
    ALL_REDUCE("all-reduce", 2), REDUCE_SCATTER("reduce-scatter", 1), ALL_GATHER("all-gather", 1), ALL_TO_ALL("all-to-all", 1),
    SEND("send", 0);

    private final String id;
    private final int factor;

    Collective(String id, int factor) { this.id = id; this.factor = factor; }

    /** "all-reduce", "reduce-scatter", "all-gather", "all-to-all", "send": as NCCL and the plan's option name it. */
    public String id() { return id; }

    /** Bytes each of n ranks sends (and receives) for S bytes. */
    public double bytesPerRank(long n, double s) {
        if (this == SEND) return s;
        return n <= 1 ? 0 : factor * (n - 1.0) / n * s;
    }

    /** The volume's formula as the notes print it. */
    public String formula() {
        return switch (this) { case ALL_REDUCE -> "2(n−1)/n·S"; case SEND -> "S"; default -> "(n−1)/n·S"; };
    }

    /** By its id (case and underscores ignored), or null. */
    public static Collective of(String s) {
        if (s == null) return null;
        String k = s.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (Collective c : values()) if (c.id.equals(k) || c.id.replace("-", "").equals(k)) return c;
        return null;
    }
}
