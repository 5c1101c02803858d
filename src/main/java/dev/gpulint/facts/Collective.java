package dev.gpulint.facts;

/** The collective an nccl-tests run measures ({@link NcclTestsFact#getCollective()}), named as its binary is (all_reduce_perf). */
public enum Collective {
    ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER, BROADCAST, REDUCE, ALLTOALL, SENDRECV, GATHER, SCATTER, HYPERCUBE,
    /** One the file names that is none of the above, or none. */
    OTHER;

    /** The collective of an nccl-tests name ("all_reduce"); OTHER for another or "". */
    public static Collective of(String test) {
        for (Collective c : values()) if (c != OTHER && c.name().toLowerCase(java.util.Locale.ROOT).equals(test)) return c;
        return OTHER;
    }
}
