package dev.gpulint.derive.unit;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Span;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.Resolver;
import dev.gpulint.derive.unit.BandwidthCheck.Figure;
import dev.gpulint.facts.BandwidthFact;
import dev.gpulint.spec.Bandwidth;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Protocol;
import dev.gpulint.spec.Quantities;
import dev.gpulint.spec.Specs;
import dev.gpulint.spec.Unitless;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * UNIT003's safe fix, its reading: a bandwidth the binder rejected for its unit ({@code bandwidth: 900}, {@code speed: 400G})
 * gets the unit that one reading of its number, and only one, matches the catalog figure for what it describes,
 * once that is resolved: {@code nvlink: 900} on an H100 is 900 GB/s (NVLink4's 900 GB/s bidirectional; 900 Gb/s
 * would be 112.5 GB/s), {@code speed: 400} on a ConnectX-7 InfiniBand port is 400 Gb/s (NDR). "Matches" is the
 * UNIT family's: within 10% of a figure ({@link BandwidthCheck#matches}). The readings are the two the message
 * offers ({@link Quantities#unitReadings}).
 *
 * <p>No fix when the catalog has no figure (an unknown GPU or NIC, no protocol, a job without a node group), when
 * no reading matches, when both do ({@code speed: 50} on Ethernet: 50GbE, or 50 GB/s = 400GbE), or when the reading
 * would mix bits and bytes in one file's bandwidths of its class (UNIT002 would then report the fixed file). An
 * NVLink or PCIe value without {@code direction} gets the direction of the figure it matches in the same fix, as
 * UNIT004's fix writes it (the last entry of a one-line block, in YAML or the DSL), so the fixed file states its
 * convention too; where that insertion is not certain there is no fix ({@link UnitEdits}). GPU memory gets none: the
 * catalog accepts 80 GB and 80 GiB alike (docs/format.md), so the figure never tells the unit.
 *
 * <p>The lint stage computes the readings and their edits ({@link UnitEdits}) with the facts; the application layer
 * gives them to the findings after the run, titled by the rules' ID.yaml, with the other Java-made fixes.
 */
public final class UnitlessReadings {

    /**
     * The fix titles in a rule's ID.yaml messages: a finding of a rule whose ID.yaml has them (UNIT003's does) takes
     * the unit fix; which rules do is said there, not in this class.
     */
    public static final String TITLE = "fix-unit", TITLE_DIRECTION = "fix-unit-direction";

    /** A fix's title: the template under key of the rule's ID.yaml, filled in with args; null when it has none. */
    @FunctionalInterface
    public interface Titles {
        String title(String ruleId, String key, Map<String, Object> args);
    }

    /**
     * A rejected value's one reading: the value written with its unit ({@code 900 GB/s}), and the direction to add
     * with it, {@code bidirectional} or {@code unidirectional} (null when none is to be added).
     */
    public record Reading(Unitless value, String fixed, boolean bits, String bandwidthClass, String direction) {}

    private final Catalog catalog;
    /** The rejected values by file and owner path ({@code cluster:c}, {@code cluster:c/node_groups[g]}, {@code training_job:j}). */
    private final Map<String, List<Unitless>> byOwner = new HashMap<>();
    private final List<Reading> out = new ArrayList<>();

    private UnitlessReadings(Catalog catalog) { this.catalog = catalog; }

    /** The values of {@code unitless} with one certain reading. */
    public static List<Reading> readings(List<Unitless> unitless, List<Specs.Cluster> clusters, List<Specs.Job> jobs, Catalog catalog) {
        if (unitless.isEmpty()) return List.of();
        UnitlessReadings u = new UnitlessReadings(catalog);
        for (Unitless v : unitless) {
            String owner = owner(v.identity());
            if (owner != null) u.byOwner.computeIfAbsent(v.span().file() + "\u0000" + owner, k -> new ArrayList<>()).add(v);
        }
        Resolver resolver = new Resolver(catalog);
        for (Resolved.Cluster c : resolver.clusters(clusters)) u.cluster(c);
        for (Specs.Job j : jobs) if (j.name() != null && u.byOwner.containsKey(j.file() + "\u0000training_job:" + j.name().value())) u.job(resolver.job(j));
        return u.unmixed(clusters, jobs);
    }

    private static final List<String> SUFFIXES = List.of("/fabric/link_speed", "/nvlink/bandwidth", "/pcie/bandwidth",
            "/network/assumed_inter_node", "/network/assumed_intra_node");

    /** The path of what holds the value: its identity without the field ({@code /nics[i]/speed} for a NIC's). */
    private static String owner(String identity) {
        for (String s : SUFFIXES) if (identity.endsWith(s)) return identity.substring(0, identity.length() - s.length());
        int nic = identity.lastIndexOf("/nics[");
        return nic > 0 && identity.endsWith("]/speed") ? identity.substring(0, nic) : null;
    }

    /** The rejected values of {@code owner} in {@code file}, written inside {@code within}, whose identity ends so. */
    private List<Unitless> values(String file, String owner, Span within, String suffix) {
        List<Unitless> found = new ArrayList<>();
        for (Unitless v : byOwner.getOrDefault(file + "\u0000" + owner, List.of())) {
            if (!v.identity().endsWith(suffix)) continue;
            if (within == null || within.covers(v.span().startLine(), v.span().startColumn())) found.add(v);
        }
        return found;
    }

    private void cluster(Resolved.Cluster c) {
        String id = "cluster:" + c.name();
        if (c.fabric() != null) {
            for (Unitless v : values(c.file(), id, c.spec().span(), "/fabric/link_speed")) {
                choose(v, BandwidthReadings.portFigures(catalog, c.fabric(), null), BandwidthFact.NETWORK, false);
            }
        }
        for (Resolved.Group g : c.groups()) if (byOwner.containsKey(c.file() + "\u0000" + g.id())) group(c, g);
    }

    private void group(Resolved.Cluster c, Resolved.Group g) {
        Specs.NodeGroup spec = g.spec();
        Catalog.Gpu gpu = g.gpu();
        Span at = spec.span();
        if (gpu != null && gpu.hasNvlink()) {
            String dir = spec.nvlink() == null || spec.nvlink().direction() == null ? null : spec.nvlink().direction().value();
            double bidir = catalog.nvlinkBidirectional(gpu);
            for (Unitless v : values(c.file(), g.id(), at, "/nvlink/bandwidth")) {
                choose(v, BandwidthReadings.conventions(bidir / 2, bidir, dir, true), BandwidthFact.DEVICE, dir == null);
            }
        }
        Specs.Pcie pcie = spec.pcie();
        long gen = pcie != null && pcie.generation() != null ? pcie.generation().value() : gpu == null ? 0L : gpu.pcieGeneration();
        Optional<Catalog.Pcie> p = catalog.pcie((int) gen);
        if (p.isPresent()) {
            double scale = (pcie != null && pcie.lanes() != null ? pcie.lanes().value() : 16L) / 16.0;
            String dir = pcie == null || pcie.direction() == null ? null : pcie.direction().value();
            for (Unitless v : values(c.file(), g.id(), at, "/pcie/bandwidth")) {
                choose(v, BandwidthReadings.conventions(p.get().perDirection() * scale, p.get().bidirectional() * scale, dir, false),
                        BandwidthFact.DEVICE, dir == null);
            }
        }
        for (Specs.Nic n : spec.nics()) {
            Protocol protocol = Resolver.protocol(n, c.fabric());
            if (protocol == null || n.span() == null) continue;
            Catalog.Nic nic = n.model() == null ? null : catalog.nic(n.model().value()).orElse(null);
            for (Unitless v : values(c.file(), g.id(), n.span(), "/speed")) {
                choose(v, BandwidthReadings.portFigures(catalog, protocol, nic), BandwidthFact.NETWORK, false);
            }
        }
    }

    /** A job's assumed bandwidths against its node group's first NIC with a speed (one NIC, or the node's NICs), and its NVLink. */
    private void job(Resolved.Job j) {
        Resolved.Group group = j.group();
        if (group == null) return;
        String id = "training_job:" + j.name();
        Specs.Nic nic = null;
        for (Specs.Nic x : group.spec().nics()) if (x.speed() != null) { nic = x; break; }
        if (nic != null) {
            double per = nic.speed().value().bytesPerSecond();
            long count = nic.count() == null ? 1L : nic.count().value();
            List<Figure> figs = new ArrayList<>(List.of(new Figure(per, "per NIC")));
            if (count > 1) figs.add(new Figure(per * count, "per node"));
            for (Unitless v : values(j.spec().file(), id, j.spec().span(), "/network/assumed_inter_node")) {
                choose(v, figs, BandwidthFact.NETWORK, false);
            }
        }
        Catalog.Gpu gpu = group.gpu();
        if (gpu != null && gpu.hasNvlink()) {
            double bidir = catalog.nvlinkBidirectional(gpu);
            for (Unitless v : values(j.spec().file(), id, j.spec().span(), "/network/assumed_intra_node")) {
                choose(v, BandwidthReadings.conventions(bidir / 2, bidir, null, true), BandwidthFact.DEVICE, false);
            }
        }
    }

    /** The value's reading when exactly one of its readings matches one of the figures. */
    private void choose(Unitless v, List<Figure> figures, String cls, boolean addDirection) {
        Reading found = null;
        for (String reading : Quantities.unitReadings(v.text())) {
            Quantities.Parsed<Bandwidth> p = Quantities.bandwidth(reading);
            if (!p.ok()) continue;
            Figure matched = null;
            for (Figure f : figures) if (BandwidthCheck.matches(p.value().bytesPerSecond(), f)) { matched = f; break; }
            if (matched == null) continue;
            if (found != null) return;     // two readings match: which was meant is a person's call
            String dir = !addDirection ? null : matched.label().equals("bidirectional") ? "bidirectional" : "unidirectional";
            found = new Reading(v, reading, p.value().bits(), cls, dir);
        }
        if (found != null) out.add(found);
    }

    /**
     * The readings that keep each file's bandwidths of a class in one base: one that would write bytes where the
     * file's other bandwidths of its class are in bits (or the other readings are), or the other way, is dropped.
     */
    private List<Reading> unmixed(List<Specs.Cluster> clusters, List<Specs.Job> jobs) {
        if (out.isEmpty()) return List.of();
        Set<String> files = new HashSet<>();
        for (Reading r : out) files.add(r.value().span().file());
        Map<String, Set<Boolean>> bases = new HashMap<>();
        for (Reading r : out) bases.computeIfAbsent(r.value().span().file() + "\u0000" + r.bandwidthClass(), k -> new HashSet<>()).add(r.bits());
        for (Specs.Cluster c : clusters) {
            if (!files.contains(c.file())) continue;
            if (c.fabric() != null) base(bases, c.file(), BandwidthFact.NETWORK, c.fabric().linkSpeed());
            for (Specs.NodeGroup g : c.nodeGroups()) {
                if (g.nvlink() != null) base(bases, c.file(), BandwidthFact.DEVICE, g.nvlink().bandwidth());
                if (g.pcie() != null) base(bases, c.file(), BandwidthFact.DEVICE, g.pcie().bandwidth());
                for (Specs.Nic n : g.nics()) base(bases, c.file(), BandwidthFact.NETWORK, n.speed());
            }
        }
        for (Specs.Job j : jobs) {
            if (!files.contains(j.file()) || j.network() == null) continue;
            base(bases, j.file(), BandwidthFact.NETWORK, j.network().assumedInterNode());
            base(bases, j.file(), BandwidthFact.DEVICE, j.network().assumedIntraNode());
        }
        List<Reading> kept = new ArrayList<>();
        for (Reading r : out) if (bases.get(r.value().span().file() + "\u0000" + r.bandwidthClass()).size() == 1) kept.add(r);
        return kept;
    }

    private static void base(Map<String, Set<Boolean>> bases, String file, String cls, Located<Bandwidth> b) {
        Set<Boolean> s = bases.get(file + "\u0000" + cls);
        if (s != null && b != null && b.value() != null) s.add(b.value().bits());
    }
}
