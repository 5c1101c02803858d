package dev.gpulint.core;

/**
 * How sure a fix is ({@link Fix}). {@code check --fix} applies safe fixes; unsafe ones only with
 * {@code --unsafe-fixes}. Each rule's help page says which its fixes are, and why.
 */
public enum Safety {
    /** The edit keeps what the manifest meant: the value the catalog figure and the text agree on (a unit's case, a one-letter typo). */
    SAFE,
    /** The edit changes what the job or cluster does (a layout, a batch, a transport): a person should read it first. */
    UNSAFE;

    /** As reports and configuration write it: {@code safe} or {@code unsafe}. */
    public String id() { return name().toLowerCase(java.util.Locale.ROOT); }

    /** {@code safe} or {@code unsafe} (any case); anything else is an IllegalArgumentException naming both. */
    public static Safety parse(String s) {
        if (s != null) for (Safety v : values()) if (v.id().equalsIgnoreCase(s.strip())) return v;
        throw new IllegalArgumentException("a fix's safety is safe or unsafe, not '" + s + "'");
    }
}
