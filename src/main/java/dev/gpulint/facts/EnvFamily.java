package dev.gpulint.facts;

/** Which library reads a variable by its prefix ({@link EnvFact#getFamily()}): NCCL_* NCCL, RDMAV_* libibverbs. */
public enum EnvFamily {
    /** NCCL_*: NCCL and its plugins. */
    NCCL,
    /** RDMAV_*: libibverbs. */
    LIBIBVERBS,
    /** Any other prefix. */
    OTHER;

    /** The family of a variable's name. */
    public static EnvFamily of(String name) {
        return name.startsWith("NCCL_") ? NCCL : name.startsWith("RDMAV_") ? LIBIBVERBS : OTHER;
    }
}
