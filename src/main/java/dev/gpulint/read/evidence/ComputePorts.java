package dev.gpulint.read.evidence;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which ports of an ibstat or ibv_devinfo capture are the node's compute NICs (the rails GPU traffic runs on) and
 * which belong to other networks. A node lists every ConnectX port it has: a DGX H100 shows its 8 InfiniBand compute
 * ports and 4 Ethernet ports for storage and in-band management (mlx5_1, mlx5_2, mlx5_7 and mlx5_8, per the DGX H100
 * user guide), and a cluster manifest declares the compute NICs only.
 *
 * <p>Against a declaration ({@link #others}): the ports on the declared link layer are the compute candidates; when
 * there are at least as many as the declared NICs, every port on another layer is of another network, and when at
 * least that many also run at the declared rate, the slower ones on the declared layer are too. When there are fewer,
 * nothing is set apart: a compute port may be the one on the wrong layer or at the wrong rate, which EVID006 and
 * EVID007 report. Without a declaration ({@link #choose}, for {@code gpulint discover}): the compute ports are the
 * most numerous kind (link layer and rate) of Active ports, InfiniBand before Ethernet and the faster first on a tie.
 */
public final class ComputePorts {
    private ComputePorts() {}

    /** A port's link layer as printed ("" when not). */
    public static String layer(Evidence.IbPort p) {
        return p.linkLayer() == null ? "" : p.linkLayer().text();
    }

    /** Whether the port is Active (ibstat Active, ibv_devinfo PORT_ACTIVE, ibstatus ACTIVE). */
    public static boolean active(Evidence.IbPort p) {
        return active(p.state() == null ? "" : p.state().text());
    }

    /** Whether a state as printed is Active (ibstat Active, ibv_devinfo PORT_ACTIVE, ibstatus ACTIVE). */
    public static boolean active(String state) {
        return state.equals("Active") || state.startsWith("PORT_ACTIVE") || state.equals("ACTIVE");
    }

    /** Whether a physical state as printed is up, or not printed (ibstat and ibstatus LinkUp, ibv_devinfo LINK_UP). */
    public static boolean linkUp(String phys) {
        return phys.isEmpty() || phys.equals("LinkUp") || phys.startsWith("LINK_UP");
    }

    /**
     * The ports that belong to other networks than {@code count} declared NICs on link layer {@code layer} ("" when
     * the declaration names none) at {@code gbps} (-1 when unknown); none when {@code count} is not known (&lt; 1).
     */
    public static List<Evidence.IbPort> others(List<Evidence.IbPort> ports, String layer, double gbps, long count) {
        List<Evidence.IbPort> out = new ArrayList<>();
        if (count < 1) return out;
        List<Evidence.IbPort> sameLayer = new ArrayList<>();
        for (Evidence.IbPort p : ports) {
            if (layer.isEmpty() || layer(p).isEmpty() || layer(p).equals(layer)) sameLayer.add(p);
        }
        if (sameLayer.size() < count) return out;
        java.util.Set<Evidence.IbPort> same = new java.util.HashSet<>(sameLayer);
        long full = sameLayer.stream().filter(p -> gbps <= 0 || p.rateGbps() < 0 || p.rateGbps() >= gbps).count();
        for (Evidence.IbPort p : ports) {
            boolean slow = gbps > 0 && p.rateGbps() >= 0 && p.rateGbps() < gbps;
            if (!same.contains(p) || slow && full >= count && active(p)) out.add(p);
        }
        return out;
    }

    /**
     * The compute ports without a declaration: the Active ports of the most numerous kind (link layer and rate), with
     * the ports on its link layer that are not Active (a compute port that is down is still a NIC the node has); every
     * port when none is Active.
     */
    public static List<Evidence.IbPort> choose(List<Evidence.IbPort> ports) {
        Map<String, List<Evidence.IbPort>> kinds = new LinkedHashMap<>();
        for (Evidence.IbPort p : ports) if (active(p)) kinds.computeIfAbsent(layer(p) + "|" + p.rateGbps(), k -> new ArrayList<>()).add(p);
        if (kinds.isEmpty()) return List.copyOf(ports);
        List<Evidence.IbPort> best = kinds.values().stream().max(Comparator
                .<List<Evidence.IbPort>>comparingInt(List::size)
                .thenComparing(k -> layer(k.get(0)).equals("InfiniBand"))
                .thenComparingDouble(k -> k.get(0).rateGbps())).orElseThrow();
        String layer = layer(best.get(0));
        java.util.Set<Evidence.IbPort> chosen = new java.util.HashSet<>(best);
        List<Evidence.IbPort> out = new ArrayList<>();
        for (Evidence.IbPort p : ports) if (chosen.contains(p) || !active(p) && layer(p).equals(layer)) out.add(p);
        return out;
    }
}
