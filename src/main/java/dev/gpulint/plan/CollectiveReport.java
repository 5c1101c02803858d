package dev.gpulint.plan;

import dev.gpulint.derive.estimate.CollectiveCost;
import dev.gpulint.derive.estimate.TierTable;
import dev.gpulint.derive.estimate.Units;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The plan's "what a collective costs on each tier" section (docs/plan.md, "Collectives on each tier"): for each
 * {@link TierTable} the bytes per GPU, line rate, ideal time, efficiency and estimate of every tier, as text, markdown
 * and JSON. The numbers come from derive; this class only writes them.
 */
final class CollectiveReport {
    private CollectiveReport() {}

    /** The JSON array of PLAN's {@code collectives} (docs/plan.md). */
    static List<Object> json(List<TierTable> tables) {
        List<Object> out = new ArrayList<>();
        for (TierTable t : tables) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("what", t.what());
            m.put("collective", t.collective().id());
            m.put("ranks", t.n());
            m.put("bytes", Math.round(t.bytes()));
            m.put("formula", t.collective().formula());
            List<Object> rows = new ArrayList<>();
            for (TierTable.Row r : t.rows()) {
                CollectiveCost c = r.cost();
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("tier", r.id());
                row.put("name", r.name());
                row.put("reference", r.reference());
                row.put("as_placed", r.asPlaced());
                row.put("bytes_per_gpu", Math.round(c.bytesPerRank()));
                row.put("line_rate_bytes_per_s", Math.round(c.lineRate()));
                row.put("line_rate_of", rateOf(c));
                row.put("ideal_s", PlanReport.r(c.idealSeconds()));
                row.put("efficiency", PlanReport.r(c.efficiency()));
                row.put("measured", c.measured());
                row.put("estimate_s", PlanReport.r(c.seconds()));
                row.put("latency_s", PlanReport.r(c.latency()));
                rows.add(row);
            }
            m.put("tiers", rows);
            out.add(m);
        }
        return out;
    }

    /** The section as text or markdown (empty without tables). */
    static String text(List<TierTable> tables, boolean markdown) {
        StringBuilder b = new StringBuilder();
        for (TierTable t : tables) {
            b.append('\n').append(markdown ? "### " : "").append(capital(t.what())).append(" on each tier\n").append(markdown ? "\n" : "");
            b.append(markdown ? "" : "  ").append(String.format(Locale.ROOT, "S = %s per GPU over %d ranks: a ring %s sends %s = %s per GPU%n",
                    Units.bytes(t.bytes()), t.n(), t.collective().id(), t.collective().formula(),
                    Units.bytes(t.rows().isEmpty() ? 0 : t.rows().get(0).cost().bytesPerRank())));
            if (markdown) b.append("\n| tier | line rate per rank | ideal | efficiency | estimate | of it NCCL's latency |\n|---|---|---|---|---|---|\n");
            for (TierTable.Row r : t.rows()) {
                CollectiveCost c = r.cost();
                String name = r.name() + (r.asPlaced() ? " (as placed)" : "");
                String eff = c.measured() ? "measured" : String.format(Locale.ROOT, "%.2f", c.efficiency());
                if (markdown) {
                    b.append("| ").append(r.asPlaced() ? "**" + name + "**" : name).append(" | ").append(gbs(c.lineRate())).append(" (")
                            .append(rateOf(c)).append(") | ")
                            .append(Units.seconds(c.idealSeconds())).append(" | ").append(eff).append(" | ")
                            .append(Units.seconds(c.seconds())).append(" | ").append(c.latencyFormula()).append(" |\n");
                } else {
                    b.append(String.format(Locale.ROOT, "  %-9s %s at line rate, %s estimated (× %s; both with NCCL's %s) — %s: %s%n", r.id(),
                            Units.seconds(c.idealSeconds()), Units.seconds(c.seconds()), eff, c.latencyFormula(), name,
                            gbs(c.lineRate()) + " per rank (" + rateOf(c) + ")"));
                }
            }
        }
        return b.toString();
    }

    /**
     * What a row's line rate is: a GPU's own link on the scale-up and PCIe tiers; across nodes, a ring rank's share of
     * the node's NICs when k of the group's ranks cross on the same node (k × the NICs per GPU: 100 GB/s for two ranks
     * on 400 Gb/s NICs), the PCIe links to them or the link inside; for an all-to-all, the rank's own NIC.
     */
    static String rateOf(CollectiveCost c) {
        long k = c.local();
        return switch (c.limit()) {
            case SCALE_UP -> "the GPU's scale-up link per direction";
            case PCIE -> "the GPU's PCIe link per direction";
            case NICS -> k > 1 ? "the node's NICs shared by the group's " + k + " ranks on it: " + k + " × "
                    + gbs(c.lineRate() / k) + " per GPU" : "one GPU's share of the node's NICs";
            case HOST_LINKS -> k > 1 ? "the PCIe links of the group's " + k + " GPUs on a node to its NICs, shared"
                    : "the GPU's PCIe link to the NICs";
            case INSIDE -> c.collective() == dev.gpulint.derive.estimate.Collective.ALL_TO_ALL
                    ? "bytes per rank over the ideal time: the share inside the node or domain is the slower"
                    : "the link inside the node, slower than the NICs it feeds";
            case OWN_NIC -> c.collective() == dev.gpulint.derive.estimate.Collective.SEND ? "the sending GPU's own NIC"
                    : "bytes per rank over the ideal time: each rank's remote share through its own NIC";
        };
    }

    private static String gbs(double v) {
        return String.format(Locale.ROOT, v >= 100e9 ? "%.0f GB/s" : "%.3g GB/s", v / 1e9);
    }

    private static String capital(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
