package dev.gpulint.derive.unit;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Resolver;
import dev.gpulint.derive.unit.BandwidthCheck.Eightfold;
import dev.gpulint.derive.unit.BandwidthCheck.Figure;
import dev.gpulint.spec.Protocol;
import dev.gpulint.spec.Specs;
import java.util.Optional;

/**
 * What a node group's NIC speed most likely means when UNIT001 calls it 8× off: the port speed of its protocol
 * (and model) that the number read in the other base matches, by the same comparison as UNIT001's
 * ({@link BandwidthReadings}). The estimates that price the network (NET003's all-reduce and the plan, through
 * {@code derive.estimate.Links}) use that figure instead of a value the same run reports as wrong, and say so.
 */
public final class NicSpeeds {
    private NicSpeeds() {}

    /** The catalog port speed a NIC's written speed is 8× off, or empty when it is right as written (or not checked). */
    public static Optional<Figure> meant(Catalog catalog, Specs.Nic n, Protocol fabric) {
        if (n.speed() == null || n.speed().value() == null) return Optional.empty();
        Protocol protocol = Resolver.protocol(n, fabric);
        if (protocol == null) return Optional.empty();
        Catalog.Nic nic = n.model() == null ? null : catalog.nic(n.model().value()).orElse(null);
        return BandwidthCheck.eightfold(n.speed().value().bytesPerSecond(), BandwidthReadings.portFigures(catalog, protocol, nic),
                BandwidthReadings.portFigures(catalog, protocol, null)).map(Eightfold::figure);
    }
}
