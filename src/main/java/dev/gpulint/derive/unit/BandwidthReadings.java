package dev.gpulint.derive.unit;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Span;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.Resolver;
import dev.gpulint.derive.unit.BandwidthCheck.Eightfold;
import dev.gpulint.derive.unit.BandwidthCheck.Figure;
import dev.gpulint.facts.BandwidthBasesFact;
import dev.gpulint.facts.BandwidthFact;
import dev.gpulint.spec.Bandwidth;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Protocol;
import dev.gpulint.spec.Specs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The UNIT family's analysis: every declared bandwidth with the catalog figures for what it
 * describes (fabric link speed, NVLink, PCIe, NIC port speed, a job's assumed bandwidths). The
 * facts carry the numbers; the rules compare them.
 */
public final class BandwidthReadings {

    private final Catalog catalog;
    private final Facts out;

    /** Per file and bandwidth class, the first reading in bits and the first in bytes: {bits, bytes}. */
    private final Map<List<String>, BandwidthFact[]> bases = new LinkedHashMap<>();

    /**
     * The readings, in source order, until {@link #finish()} adds them: a fix's unit depends on the file's other
     * readings of the class (it keeps the file's base), which are known only when every file is read.
     */
    private final List<Pending> pending = new ArrayList<>();

    /** The NIC speeds that are 8× off their catalog figure, by where they are written: a job is not compared with them. */
    private final Map<Span, BandwidthFact> flaggedNics = new java.util.HashMap<>();

    private record Pending(BandwidthFact.Builder builder, BandwidthFact fact, dev.gpulint.core.Fold fold, double number, double perUnit) {}

    public BandwidthReadings(Catalog catalog, Facts out) {
        this.catalog = catalog;
        this.out = out;
    }

    /** The fold of the node group whose readings are being emitted, null when it stands for itself alone. */
    private dev.gpulint.core.Fold fold;

    private void emit(BandwidthFact.Builder b, Located<Bandwidth> bw) {
        BandwidthFact f = b.build(out::shared);
        if (f.getEightfoldFigure() > 0 && f.getKind() == dev.gpulint.facts.BandwidthKind.NIC) flaggedNics.put(f.getSpan(), f);
        Bandwidth v = bw.value();
        pending.add(new Pending(b, f, fold, v.number(), v.number() == 0 ? 0 : v.bytesPerSecond() / v.number()));
    }

    /** Adds a reading: the fact, and the file's first reading in its base for UNIT002. */
    private void add(BandwidthFact.Builder b, BandwidthFact f, dev.gpulint.core.Fold fold) {
        out.add(f);
        BandwidthFact[] firsts = bases.computeIfAbsent(List.of(String.valueOf(f.getFile()), f.getBandwidthClass()), k -> new BandwidthFact[2]);
        int base = f.isBits() ? 0 : 1;
        if (firsts[base] == null || f.getOrdinal() < firsts[base].getOrdinal()) {
            // the first reading of a folded node group is its first member's (the representative), by its own name
            if (fold != null) {
                dev.gpulint.core.Fold ff = fold;
                f = b.at(f.getFile(), f.getSpan(), f.getKeySpan(), f.getOrdinal(), ff.named(f.getIdentity(), 0)).build(x -> ff.named(x, 0));
            }
            firsts[base] = f;
        }
    }

    /**
     * After every reading: the readings, each exact 8× fix in the file's base ({@link #sameBase}), and one
     * {@link BandwidthBasesFact} per file and class (UNIT002 compares its two readings).
     */
    public void finish() {
        Map<List<String>, boolean[]> sound = new java.util.HashMap<>();
        for (Pending p : pending) {
            BandwidthFact f = p.fact();
            if (f.getEightfoldFigure() > 0) continue;   // a value that is itself wrong says nothing of the file's base
            sound.computeIfAbsent(List.of(String.valueOf(f.getFile()), f.getBandwidthClass()), k -> new boolean[2])[f.isBits() ? 0 : 1] = true;
        }
        for (Pending p : pending) {
            BandwidthFact f = p.fact();
            if (f.getFixedUnit() != null) {
                boolean[] b = sound.getOrDefault(List.of(String.valueOf(f.getFile()), f.getBandwidthClass()), new boolean[2]);
                int own = f.isBits() ? 0 : 1;
                if (b[own] && !b[1 - own]) f = sameBase(p);
            }
            add(p.builder(), f, p.fold());
        }
        pending.clear();
        flaggedNics.clear();
        for (Map.Entry<List<String>, BandwidthFact[]> e : bases.entrySet()) {
            BandwidthFact[] firsts = e.getValue();
            BandwidthFact any = firsts[0] != null ? firsts[0] : firsts[1];
            out.add(new BandwidthBasesFact(any.getFile(), any.getBandwidthClass(), firsts[0], firsts[1]));
        }
        bases.clear();
    }

    /**
     * The fact of an exact 8× reading whose fix keeps the unit as written and writes the catalog figure in it: the
     * file's other values of the class are all in this base, so swapping the unit would mix bits and bytes (UNIT002).
     */
    private BandwidthFact sameBase(Pending p) {
        BandwidthFact f = p.fact();
        if (p.perUnit() <= 0) return f;
        String number = dev.gpulint.spec.Quantities.format(f.getEightfoldFigure() / p.perUnit());
        return p.builder().sameBase(number).build(out::shared);
    }

    /** The fabric's link speed against the port speeds of its protocol. */
    public void fabric(Resolved.Cluster c) {
        Specs.Fabric f = c.spec().fabric();
        if (f == null || f.linkSpeed() == null || c.fabric() == null) return;
        List<Figure> figs = portFigures(c.fabric(), null);
        BandwidthFact.Builder b = reading(c.file(), f.linkSpeed(), null, "cluster:" + c.name() + "/fabric/link_speed",
                "the " + c.fabric().display() + " fabric link speed", BandwidthFact.NETWORK, "fabric", figs, List.of())
                .technology(c.fabric().display());
        emit(withFastest(b, figs), f.linkSpeed());
    }

    /** A node group's NVLink, PCIe and NIC speeds. */
    public void group(Resolved.Group g, Protocol fabric) {
        fold = g.spec().fold();
        try {
            readings(g, fabric);
        } finally {
            fold = null;
        }
    }

    private void readings(Resolved.Group g, Protocol fabric) {
        Specs.NodeGroup spec = g.spec();
        Catalog.Gpu gpu = g.gpu();
        Specs.Nvlink nv = spec.nvlink();
        if (nv != null && nv.bandwidth() != null) {
            String dir = nv.direction() == null ? null : nv.direction().value();
            emit(nvlink(g.cluster().file(), nv.bandwidth(), nv.keySpan(), g.id() + "/nvlink/bandwidth",
                    "the NVLink bandwidth of " + (gpu != null ? gpu.name() : "the GPU"), "nvlink", gpu, dir).direction(dir), nv.bandwidth());
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
            BandwidthFact.Builder b = reading(g.cluster().file(), n.speed(), null,
                    g.id() + "/nics[" + (n.model() != null ? n.model().value() : i) + "]/speed",
                    "the " + model + (protocol != null ? " " + protocol.display() : "") + " port speed",
                    BandwidthFact.NETWORK, "nic", figs, protocol == null ? List.of() : portFigures(protocol, null));
            if (protocol != null) b.technology((nic != null ? nic.name() + " " : "") + protocol.display());
            emit(withFastest(b, figs), n.speed());
        }
    }

    private void pcie(Resolved.Group g, Specs.Pcie pcie, Catalog.Gpu gpu) {
        long gen = pcie.generation() != null ? pcie.generation().value() : gpu == null ? 0L : gpu.pcieGeneration();
        long lanes = pcie.lanes() != null ? pcie.lanes().value() : 16L;
        String dir = pcie.direction() == null ? null : pcie.direction().value();
        List<Figure> figs = new ArrayList<>();
        double per = 0;
        double bidir = 0;
        Optional<Catalog.Pcie> p = catalog.pcie((int) gen);
        if (p.isPresent()) {
            double scale = lanes / 16.0;
            per = p.get().perDirection() * scale;
            bidir = p.get().bidirectional() * scale;
            figs.addAll(conventions(per, bidir, dir, false));
        }
        BandwidthFact.Builder b = reading(g.cluster().file(), pcie.bandwidth(), null, g.id() + "/pcie/bandwidth", "the PCIe bandwidth",
                BandwidthFact.DEVICE, "pcie", figs, List.of()).direction(dir).conventions(per, bidir);
        if (p.isPresent()) {
            b.technology("PCIe Gen" + gen + " x" + lanes).limit("unidirectional".equals(dir) ? per : bidir, null);
        }
        emit(b, pcie.bandwidth());
    }

    /** A job's assumed inter- and intra-node bandwidths against its node group's NICs and NVLink. */
    public void job(Resolved.Job j) {
        Specs.Job spec = j.spec();
        Specs.Network n = spec.network();
        Resolved.Group group = j.group();
        if (n == null || group == null) return;
        if (n.assumedInterNode() != null) interNode(j, n.assumedInterNode(), group);
        if (n.assumedIntraNode() != null) {
            emit(nvlink(spec.file(), n.assumedIntraNode(), null, "training_job:" + j.name() + "/network/assumed_intra_node",
                    "the job's assumed intra-node bandwidth", "job-intra-node", group.gpu(), null), n.assumedIntraNode());
        }
    }

    private void interNode(Resolved.Job j, Located<Bandwidth> assumed, Resolved.Group group) {
        Specs.Nic nic = null;
        for (Specs.Nic x : group.spec().nics()) if (x.speed() != null) { nic = x; break; }
        List<Figure> figs = new ArrayList<>();
        double per = 0;
        long count = 0;
        // the NIC speed is itself 8x off its catalog figure (UNIT001 there): the job is not compared with it, so
        // no finding and no fix of the job rests on it; once the NIC speed is fixed, the job is compared again
        BandwidthFact flagged = nic == null ? null : flaggedNics.get(nic.speed().span());
        if (flagged != null) nic = null;
        if (nic != null) {
            per = nic.speed().value().bytesPerSecond();
            count = nic.count() == null ? 1L : nic.count().value();
            // a figure equal to the node's aggregate is right: no 8x comparison with one NIC then
            boolean aggregate = count > 1 && BandwidthCheck.matches(assumed.value().bytesPerSecond(), new Figure(per * count, ""));
            figs.add(aggregate ? new Figure(per * count, "per node") : new Figure(per, "per NIC"));
        }
        BandwidthFact.Builder b = reading(j.spec().file(), assumed, null, "training_job:" + j.name() + "/network/assumed_inter_node",
                "the job's assumed inter-node bandwidth", BandwidthFact.NETWORK, "job-inter-node", figs, List.of());
        if (nic != null) {
            b.nics(nic.model() == null ? null : nic.model().value(), per, count).limit(per * count, null)
                    .related(nic.speed().span(), group.name());
        }
        if (flagged != null) b.flaggedReference(flagged.getSpan());
        emit(b, assumed);
    }

    /**
     * An NVLink value (a node group's, or a job's assumed intra-node bandwidth) against the GPU's NVLink.
     *
     * @param dir the declared direction, or null when either convention may be meant
     */
    private BandwidthFact.Builder nvlink(String file, Located<Bandwidth> bw, Span keySpan, String identity, String subject,
                                         String kind, Catalog.Gpu gpu, String dir) {
        if (gpu == null || !gpu.hasNvlink()) return reading(file, bw, keySpan, identity, subject, BandwidthFact.DEVICE, kind, List.of(), List.of());
        double bidir = catalog.nvlinkBidirectional(gpu);
        List<Figure> figs = conventions(bidir / 2, bidir, dir, true);
        return reading(file, bw, keySpan, identity, subject, BandwidthFact.DEVICE, kind, figs, List.of())
                .technology("NVLink" + gpu.nvlinkGeneration() + " on " + gpu.name())
                .conventions(bidir / 2, bidir)
                .limit("unidirectional".equals(dir) ? bidir / 2 : bidir, null);
    }

    /**
     * An NVLink or PCIe figure in the conventions a declared direction allows (both when none is declared): the
     * per-direction figure labelled "per direction", the aggregate "bidirectional"; NVLink lists the aggregate first.
     */
    static List<Figure> conventions(double perDirection, double bidirectional, String dir, boolean bidirectionalFirst) {
        List<Figure> figs = new ArrayList<>();
        Figure per = new Figure(perDirection, "per direction"), both = new Figure(bidirectional, "bidirectional");
        for (Figure f : bidirectionalFirst ? List.of(both, per) : List.of(per, both)) {
            if (f == per ? !"bidirectional".equals(dir) : !"unidirectional".equals(dir)) figs.add(f);
        }
        return figs;
    }

    private List<Figure> portFigures(Protocol protocol, Catalog.Nic nic) {
        return portFigures(catalog, protocol, nic);
    }

    /** The port speeds of a protocol, up to the fastest the NIC model supports when it is known. */
    static List<Figure> portFigures(Catalog catalog, Protocol protocol, Catalog.Nic nic) {
        List<Figure> figs = new ArrayList<>();
        boolean ib = protocol == Protocol.INFINIBAND;
        double max = nic == null ? Double.MAX_VALUE : ib ? nic.maxInfiniband() : nic.maxEthernet();
        for (Catalog.LinkSpeed s : catalog.linkSpeeds(protocol.id())) {
            if (s.bytesPerSecond() <= max * 1.0001) figs.add(new Figure(s.bytesPerSecond(), (ib ? "InfiniBand " : "") + s.name()));
        }
        return figs;
    }

    /** A port's limit: the fastest of its port speeds (the catalog lists them slowest first). */
    private static BandwidthFact.Builder withFastest(BandwidthFact.Builder b, List<Figure> figs) {
        if (figs.isEmpty()) return b;
        Figure max = figs.get(figs.size() - 1);
        return b.limit(max.bytesPerSecond(), max.label());
    }

    /**
     * A fact's builder with the value and its comparison with the catalog figures.
     *
     * @param technology figures of the same technology that the described part cannot reach (XDR
     *                   800 Gb/s on a ConnectX-7): a value matching one as written is no bit/byte
     *                   mix-up, only beyond the part (UNIT005)
     */
    private BandwidthFact.Builder reading(String file, Located<Bandwidth> bw, Span keySpan, String identity, String subject,
                                          String cls, String kind, List<Figure> figures, List<Figure> technology) {
        Bandwidth b = bw.value();
        double v = b.bytesPerSecond();
        BandwidthFact.Builder f = BandwidthFact.builder().at(file, bw.span(), keySpan, out.ordinal(), identity)
                .what(subject, cls, kind).value(v, b.bits(), b.written(), b.otherReading())
                .nearest(BandwidthCheck.nearest(v, figures));
        Optional<Eightfold> e = BandwidthCheck.eightfold(v, figures, technology);
        e.ifPresent(x -> f.eightfold(x.figure().bytesPerSecond(), x.figure().label()));
        // the number as written is the figure exactly in the other base: only the unit's b/B was wrong
        double flipped = b.bits() ? v * 8 : v / 8;
        boolean exact = e.isPresent() && Math.abs(flipped / e.get().figure().bytesPerSecond() - 1) < 1e-9;
        f.unit(b.unit(), exact ? b.flippedUnit() : null);
        return f;
    }
}
