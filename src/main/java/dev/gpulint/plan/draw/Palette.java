package dev.gpulint.plan.draw;

/**
 * The colours of the pictures: one fill and border per tensor-parallel group (cycling; colour-blind-safe hues from
 * the Tableau 10 set, red and grey left out), red for links over the network and slate for NVLink links between nodes.
 */
final class Palette {
    private Palette() {}

    private static final String[][] TP = {
            {"#aec7e8", "#1f77b4"}, {"#ffbb78", "#ff7f0e"}, {"#98df8a", "#2ca02c"}, {"#c5b0d5", "#9467bd"},
            {"#c49c94", "#8c564b"}, {"#f7b6d2", "#e377c2"}, {"#dbdb8d", "#bcbd22"}, {"#9edae5", "#17becf"},
            {"#ffe08a", "#b8860b"}, {"#c5cae9", "#3949ab"}, {"#dcedc8", "#558b2f"}, {"#83c5be", "#006d77"}};

    static final String NETWORK = "#d62728";
    static final String NVLINK = "#546e7a";

    static int size() { return TP.length; }

    static String fill(int tpGroup) { return TP[tpGroup % TP.length][0]; }

    static String stroke(int tpGroup) { return TP[tpGroup % TP.length][1]; }

    /** The colour class of a tp group: 0 to {@link #size()} − 1. */
    static int index(int tpGroup) { return tpGroup % TP.length; }
}
