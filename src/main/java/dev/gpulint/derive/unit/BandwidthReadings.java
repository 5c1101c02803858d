package dev.gpulint.derive.unit;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Span;

import dev.gpulint.derive.unit.BandwidthCheck.Eightfold;
import dev.gpulint.derive.unit.BandwidthCheck.Figure;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.Resolver;
import dev.gpulint.facts.BandwidthFact;
import dev.gpulint.spec.Bandwidth;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Protocol;
import dev.gpulint.spec.Quantities;
import dev.gpulint.spec.Specs;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.gpulint.derive.Text.gbs;

/**
 * The UNIT family's analysis: every declared bandwidth read against the catalog figures for what
 * it describes (fabric link speed, NVLink, PCIe, NIC port speed, a job's assumed bandwidths).
 */
public final class BandwidthReadings {

    private final Catalog catalog;
    private final Facts out;

    public BandwidthReadings(Catalog catalog, Facts out) {
        this.catalog = catalog;
        this.out = out;
    }

    /** The fabric's link speed against the fastest port of its protocol. */
    public void fabric(Resolved.Cluster c) {
        Specs.Fabric f = c.spec().fabric();
        if (f == null || f.linkSpeed() == null || c.fabric() == null) return;
        List<Figure> figs = portFigures(c.fabric(), null);
        Figure max = figs.isEmpty() ? null : figs.get(figs.size() - 1);
        bandwidth(c.file(), f.linkSpeed(), null, "cluster:" + c.name() + "/fabric/link_speed",
                "the " + c.fabric().display() + " fabric link speed", BandwidthFact.NETWORK, "fabric", figs, List.of(),
                max == null ? null : new Figure(max.bytesPerSecond(), c.fabric().display() + " ports run at most "
                        + BandwidthCheck.bothBases(max.bytesPerSecond()) + " per direction (" + max.label() + ")"),
                null, true, null, false, 0);
    }

    /** A node group's NVLink, PCIe and NIC speeds. */
    public void group(Resolved.Group g, Protocol fabric) {
        Specs.NodeGroup spec = g.spec();
        Catalog.Gpu gpu = g.gpu();
        Specs.Nvlink nv = spec.nvlink();
        if (nv != null && nv.bandwidth() != null) {
            String dir = nv.direction() == null ? null : nv.direction().value();
            Expectation x = nvlink(gpu, dir);
            bandwidth(g.cluster().file(), nv.bandwidth(), nv.keySpan(), g.id() + "/nvlink/bandwidth",
                    "the NVLink bandwidth of " + (gpu != null ? gpu.name() : "the GPU"), BandwidthFact.DEVICE, "nvlink",
                    x.figures(), List.of(), x.limit(), x.expected(), false, dir, true, x.bidirectional());
        }
        Specs.Pcie pcie = spec.pcie();
        if (pcie != null && pcie.bandwidth() != null) pcie(g, pcie, gpu);
        int i = 0;
        for (Specs.Nic n : spec.nics()) {
            i++;
            if (n.speed() == null) continue;
            Protocol protocol = Resolver.protocol(n, fabric);
            Catalog.Nic nic = n.model() == null ? null : catalog.nic(n.model().value()).orElse(null);
            List<Figure> figs = protocol == null ? List.of() : portFigures(protocol, nic);
            String model = n.model() != null ? n.model().value() : "NIC #" + i;
            Figure limit = null;
            if (!figs.isEmpty()) {
                Figure max = figs.get(figs.size() - 1);
                limit = new Figure(max.bytesPerSecond(), (nic != null ? nic.name() + " " : "") + protocol.display()
                        + " ports run at most " + BandwidthCheck.bothBases(max.bytesPerSecond()) + " per direction ("
                        + max.label() + ")");
            }
            bandwidth(g.cluster().file(), n.speed(), null, g.id() + "/nics[" + (n.model() != null ? n.model().value() : i) + "]/speed",
                    "the " + model + (protocol != null ? " " + protocol.display() : "") + " port speed",
                    BandwidthFact.NETWORK, "nic", figs, protocol == null ? List.of() : portFigures(protocol, null), limit,
                    null, true, null, false, 0);
        }
    }

    private void pcie(Resolved.Group g, Specs.Pcie pcie, Catalog.Gpu gpu) {
        long gen = pcie.generation() != null ? pcie.generation().value() : gpu == null ? 0L : gpu.pcieGeneration();
        long lanes = pcie.lanes() != null ? pcie.lanes().value() : 16L;
        String dir = pcie.direction() == null ? null : pcie.direction().value();
        List<Figure> figs = new ArrayList<>();
        Figure limit = null;
        String expected = null;
        double bidir = 0;
        Optional<Catalog.Pcie> p = catalog.pcie((int) gen);
        if (p.isPresent()) {
            double scale = lanes / 16.0;
            double per = p.get().perDirection() * scale;
            bidir = p.get().bidirectional() * scale;
            if (!"bidirectional".equals(dir)) figs.add(new Figure(per, "per direction"));
            if (!"unidirectional".equals(dir)) figs.add(new Figure(bidir, "bidirectional"));
            String link = "PCIe Gen" + gen + " x" + lanes;
            expected = link + " carries " + gbs(per) + " per direction (" + gbs(bidir) + " bidirectional)";
            double max = "unidirectional".equals(dir) ? per : bidir;
            limit = new Figure(max, link + " carries at most " + gbs(max) + ("unidirectional".equals(dir) ? " per direction" : " bidirectional"));
        }
        bandwidth(g.cluster().file(), pcie.bandwidth(), null, g.id() + "/pcie/bandwidth", "the PCIe bandwidth", BandwidthFact.DEVICE,
                "pcie", figs, List.of(), limit, expected, false, dir, true, bidir);
    }

    /** A job's assumed inter- and intra-node bandwidths against its node group's NICs and NVLink. */
    public void job(Resolved.Job j) {
        Specs.Job spec = j.spec();
        Specs.Network n = spec.network();
        Resolved.Group group = j.group();
        if (n == null || group == null) return;
        if (n.assumedInterNode() != null) interNode(j, n.assumedInterNode(), group);
        if (n.assumedIntraNode() != null) {
            Expectation x = nvlink(group.gpu(), null);
            bandwidth(spec.file(), n.assumedIntraNode(), null, "training_job:" + j.name() + "/network/assumed_intra_node",
                    "the job's assumed intra-node bandwidth", BandwidthFact.DEVICE, "job-intra-node", x.figures(), List.of(),
                    x.limit(), x.expected(), false, null, false, x.bidirectional());
        }
    }

    private void interNode(Resolved.Job j, Located<Bandwidth> assumed, Resolved.Group group) {
        Specs.Nic nic = null;
        for (Specs.Nic x : group.spec().nics()) if (x.speed() != null) { nic = x; break; }
        List<Figure> figs = new ArrayList<>();
        String expected = null;
        Figure limit = null;
        if (nic != null) {
            double per = nic.speed().value().bytesPerSecond();
            long count = nic.count() == null ? 1L : nic.count().value();
            figs.add(new Figure(per, "per NIC"));
            expected = "the cluster's " + (nic.model() != null ? nic.model().value() + " " : "") + "NICs run at "
                    + BandwidthCheck.bothBases(per) + " each" + (count > 1 ? " (" + count + " per node: "
                    + gbs(per * count) + " per node)" : "");
            limit = new Figure(per * count, "the node's " + count + " × " + Quantities.format(per * 8 / 1e9)
                    + " Gb/s NICs carry at most " + gbs(per * count) + " per direction");
            // a figure equal to the node's aggregate is right: no 8x comparison with one NIC then
            if (count > 1 && BandwidthCheck.matches(assumed.value().bytesPerSecond(), new Figure(per * count, ""))) {
                figs.set(0, new Figure(per * count, "per node"));
            }
        }
        List<Figure> eightfoldFigures = figs.isEmpty() ? figs : List.of(figs.get(0));
        BandwidthFact.Builder b = reading(j.spec().file(), assumed, null, "training_job:" + j.name() + "/network/assumed_inter_node",
                "the job's assumed inter-node bandwidth", BandwidthFact.NETWORK, "job-inter-node", eightfoldFigures, List.of(),
                limit, expected, false, nic == null);
        if (nic != null) b.related(nic.speed().span(), "NIC speed of node group '" + group.name() + "'");
        out.add(b.fact());
    }

    /** What the catalog says a GPU's NVLink carries: the figures a declared value may match, its limit, the phrase. */
    private record Expectation(List<Figure> figures, Figure limit, String expected, double bidirectional) {}

    /** @param dir the declared direction, or null when either convention may be meant */
    private Expectation nvlink(Catalog.Gpu gpu, String dir) {
        if (gpu == null || !gpu.hasNvlink()) return new Expectation(List.of(), null, null, 0);
        double bidir = catalog.nvlinkBidirectional(gpu);
        String gen = "NVLink" + gpu.nvlinkGeneration() + " on " + gpu.name();
        List<Figure> figs = new ArrayList<>();
        if (!"unidirectional".equals(dir)) figs.add(new Figure(bidir, "bidirectional"));
        if (!"bidirectional".equals(dir)) figs.add(new Figure(bidir / 2, "per direction"));
        double max = "unidirectional".equals(dir) ? bidir / 2 : bidir;
        Figure limit = new Figure(max, gen + " carries at most " + gbs(max) + " per GPU "
                + ("unidirectional".equals(dir) ? "per direction (" + gbs(bidir) + " is the bidirectional aggregate)" : "bidirectional"));
        String expected = gen + " carries " + gbs(bidir) + " per GPU bidirectional (" + gbs(bidir / 2) + " per direction)";
        return new Expectation(List.copyOf(figs), limit, expected, bidir);
    }

    private List<Figure> portFigures(Protocol protocol, Catalog.Nic nic) {
        List<Figure> figs = new ArrayList<>();
        boolean ib = protocol == Protocol.INFINIBAND;
        double max = nic == null ? Double.MAX_VALUE : ib ? nic.maxInfiniband() : nic.maxEthernet();
        for (Catalog.LinkSpeed s : catalog.linkSpeeds(protocol.id())) {
            if (s.bytesPerSecond() <= max * 1.0001) figs.add(new Figure(s.bytesPerSecond(), (ib ? "InfiniBand " : "") + s.name()));
        }
        return figs;
    }

    /**
     * Adds a BandwidthFact: compares the value with the catalog figures for what it describes.
     *
     * @param plausible   figures of the same technology that the described part cannot reach (XDR
     *                    800 Gb/s on a ConnectX-7): a value matching one as written is no bit/byte
     *                    mix-up, only beyond the part (UNIT005)
     * @param port        the figures are port speeds ("InfiniBand NDR ports run at 400 Gb/s = 50 GB/s")
     * @param direction   the declared direction of an NVLink or PCIe value, or null
     * @param directional NVLink and PCIe values, where per direction and bidirectional differ
     * @param bidir       the bidirectional catalog figure of a directional value, 0 when unknown
     */
    private void bandwidth(String file, Located<Bandwidth> bw, Span keySpan, String identity, String subject, String cls,
                           String kind, List<Figure> figures, List<Figure> plausible, Figure limit, String expected,
                           boolean port, String direction, boolean directional, double bidir) {
        BandwidthFact.Builder f = reading(file, bw, keySpan, identity, subject, cls, kind, figures, plausible, limit, expected, port, true);
        if (directional) {
            double v = bw.value().bytesPerSecond();
            String convention = null;
            String fix = null;
            if (bidir > 0) {
                if (BandwidthCheck.matches(v, new Figure(bidir, ""))) {
                    convention = "the bidirectional aggregate (" + gbs(bidir / 2) + " per direction)";
                    fix = "direction: bidirectional";
                } else if (BandwidthCheck.matches(v, new Figure(bidir / 2, ""))) {
                    convention = "the per-direction figure (" + gbs(bidir) + " bidirectional)";
                    fix = "direction: unidirectional";
                }
            }
            f.direction(true, direction != null, convention, fix);
        }
        out.add(f.fact());
    }

    private BandwidthFact.Builder reading(String file, Located<Bandwidth> bw, Span keySpan, String identity, String subject,
                                          String cls, String kind, List<Figure> figures, List<Figure> plausible, Figure limit,
                                          String expected, boolean port, boolean mismatches) {
        Bandwidth b = bw.value();
        double v = b.bytesPerSecond();
        BandwidthFact.Builder f = BandwidthFact.builder().at(file, bw.span(), keySpan, out.ordinal(), identity)
                .what(subject, cls, kind).value(b.bits(), b.written(), b.otherReading());
        boolean matched = figures.stream().anyMatch(x -> BandwidthCheck.matches(v, x));
        boolean technologyFigure = plausible.stream().anyMatch(x -> BandwidthCheck.matches(v, x));
        Optional<Eightfold> e = technologyFigure ? Optional.empty() : BandwidthCheck.eightfold(v, figures);
        if (e.isPresent()) {
            Figure fig = e.get().figure();
            String exp = port ? fig.label() + " ports run at " + BandwidthCheck.bothBases(fig.bytesPerSecond()) + " per direction" : expected;
            String suggestion = cls.equals(BandwidthFact.DEVICE) ? gbs(fig.bytesPerSecond()) : BandwidthCheck.suggestion(fig.bytesPerSecond());
            f.eightfold(e.get().above() ? "above" : "below", exp + "; write " + suggestion);
        } else if (!matched && limit != null && v > limit.bytesPerSecond() * (1 + BandwidthCheck.TOLERANCE)) {
            f.beyond(limit.label());
        } else if (!matched && !figures.isEmpty() && mismatches) {
            f.mismatch(expected != null ? expected : port ? "the " + (figures.size() == 1 ? "port speed is " : "port speeds are ")
                    + portList(figures) : null);
        }
        return f;
    }

    private static String portList(List<Figure> figs) {
        List<String> parts = new ArrayList<>();
        for (Figure x : figs) parts.add(Quantities.format(x.bytesPerSecond() * 8 / 1e9) + " Gb/s");
        return String.join(", ", parts);
    }
}
