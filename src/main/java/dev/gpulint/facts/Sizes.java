package dev.gpulint.facts;

/** Arithmetic on the sizes facts carry (parallel sizes, batch sizes, layer counts), for facts and rules alike. */
public final class Sizes {
    private Sizes() {}

    /**
     * A product of sizes that saturates at Long.MAX_VALUE instead of wrapping (2^32 × 2^32 wraps to 0,
     * and a rule would then divide by it); 0 when a factor is not positive (not known).
     */
    public static long product(long a, long b) {
        if (a <= 0 || b <= 0) return 0;
        return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
    }
}
