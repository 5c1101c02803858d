package dev.gpulint.spec;

import java.util.Locale;

/** The network protocols of the manifest format (docs/format.md: fabric type and NIC protocol). */
public enum Protocol {
    INFINIBAND("InfiniBand"), ROCE("RoCE"), ETHERNET("Ethernet");

    private final String display;

    Protocol(String display) { this.display = display; }

    /** The protocol of a bound value, null when absent or not one of the three. */
    public static Protocol of(String value) {
        if (value == null) return null;
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "infiniband" -> INFINIBAND;
            case "roce" -> ROCE;
            case "ethernet" -> ETHERNET;
            default -> null;
        };
    }

    /** InfiniBand or RoCE. */
    public boolean rdma() { return this != ETHERNET; }

    /** The name as the manifest writes it. */
    public String id() { return id; }

    private final String id = name().toLowerCase(Locale.ROOT);

    /** "InfiniBand", "RoCE", "Ethernet". */
    public String display() { return display; }
}
