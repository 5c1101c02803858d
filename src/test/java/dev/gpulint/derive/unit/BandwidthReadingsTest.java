package dev.gpulint.derive.unit;

import dev.gpulint.spec.Model;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.bind.Binder;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.Resolver;
import dev.gpulint.facts.BandwidthFact;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The numbers a small cluster's bandwidth facts carry: the declared value and the catalog figures. */
class BandwidthReadingsTest {

    private static final String CLUSTER = """
            kind: cluster
            name: c
            fabric: { type: infiniband, link_speed: 400 Gb/s }
            node_groups:
              - name: g
                count: 2
                gpu: { model: H100-SXM5-80GB, count: 8 }
                nvlink: { switch: true, bandwidth: 900 Gb/s }
                pcie: { generation: 5, lanes: 8, bandwidth: 32 GB/s, direction: unidirectional }
                nics:
                  - { model: ConnectX-7, count: 4, speed: 400 GB/s, protocol: infiniband }
            ---
            kind: training_job
            name: j
            cluster: c
            nodes: 2
            network: { assumed_inter_node: 1600 GB/s, assumed_intra_node: 450 GB/s }
            """;

    private static Map<String, BandwidthFact> facts() {
        Model b = new Binder().bind(new YamlReader().read(SourceFile.of("c.yaml", CLUSTER)).documents());
        Catalog catalog = Catalog.builtIn();
        Facts out = new Facts();
        BandwidthReadings readings = new BandwidthReadings(catalog, out);
        Resolver resolver = new Resolver(catalog);
        for (Resolved.Cluster c : resolver.clusters(b.clusters())) {
            readings.fabric(c);
            for (Resolved.Group g : c.groups()) readings.group(g, c.fabric());
        }
        readings.job(resolver.job(b.jobs().get(0)));
        readings.finish();      // the readings are added once every file's bases are known (a fix keeps its file's base)
        Map<String, BandwidthFact> byKind = new HashMap<>();
        for (Object o : out.list()) if (o instanceof BandwidthFact f) byKind.put(f.getKind().id(), f);
        return byKind;
    }

    @Test
    void fabricLinkSpeedMatchesNdr() {
        BandwidthFact f = facts().get("fabric");
        assertEquals(50e9, f.getBytesPerSecond());
        assertEquals(50e9, f.getNearestFigure());
        assertEquals(0, f.getEightfoldFigure());
        assertEquals("InfiniBand", f.getTechnology());
        assertEquals("InfiniBand XDR", f.getLimitLabel());
        assertEquals(100e9, f.getLimit());
    }

    @Test
    void nicSpeedInBytesIsEightTimesNdrAndTheNicStopsAtNdr() {
        BandwidthFact f = facts().get("nic");
        assertEquals(400e9, f.getBytesPerSecond());
        assertEquals(50e9, f.getEightfoldFigure());
        assertEquals("InfiniBand NDR", f.getEightfoldLabel());
        assertEquals(50e9, f.getLimit());
        assertEquals("ConnectX-7 InfiniBand", f.getTechnology());
    }

    @Test
    void nvlinkInBitsIsEightTimesBelowTheAggregate() {
        BandwidthFact f = facts().get("nvlink");
        assertEquals(112.5e9, f.getBytesPerSecond());
        assertEquals(900e9, f.getEightfoldFigure());
        assertEquals(900e9, f.getBidirectionalFigure());
        assertEquals(450e9, f.getPerDirectionFigure());
        assertEquals(900e9, f.getLimit());
        assertNull(f.getDirection());
        assertEquals("NVLink4 on H100-SXM5-80GB", f.getTechnology());
    }

    @Test
    void pcieFiguresScaleWithLanesAndTheLimitFollowsTheDirection() {
        BandwidthFact f = facts().get("pcie");
        Catalog.Pcie gen5 = Catalog.builtIn().pcie(5).orElseThrow();
        assertEquals(gen5.perDirection() / 2, f.getPerDirectionFigure());
        assertEquals(gen5.bidirectional() / 2, f.getBidirectionalFigure());
        assertEquals(gen5.perDirection() / 2, f.getLimit());
        assertEquals(gen5.perDirection() / 2, f.getNearestFigure());
        assertEquals("unidirectional", f.getDirection());
        assertEquals("PCIe Gen5 x8", f.getTechnology());
    }

    @Test
    void jobInterNodeIsNotReadAgainstANicSpeedThatIsItself8xOff() {
        // the NICs' 400 GB/s is 8x NDR (UNIT001 there, nicSpeedInBytesIsEightTimesNdr...): no figure, no limit for the
        // job, whose comparison would rest on it (issue #37); the aggregate comparison is UNIT001's case
        // "400 GB/s per node from eight 400G NICs is the node's aggregate"
        BandwidthFact f = facts().get("job-inter-node");
        assertEquals(1600e9, f.getBytesPerSecond());
        assertEquals(0, f.getNicSpeed());
        assertEquals(0, f.getLimit());
        assertEquals(0, f.getNearestFigure());
        assertEquals(0, f.getEightfoldFigure());
        assertEquals(facts().get("nic").getSpan(), f.getFlaggedReference());
    }

    @Test
    void jobIntraNodeIsReadAgainstNvlink() {
        BandwidthFact f = facts().get("job-intra-node");
        assertEquals(450e9, f.getNearestFigure());
        assertEquals(900e9, f.getLimit());
    }
}
