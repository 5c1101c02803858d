package dev.gpulint.derive.hw;

import dev.gpulint.spec.Model;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.bind.Binder;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.Resolver;
import dev.gpulint.facts.NicFact;
import dev.gpulint.facts.NodeGroupFact;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import dev.gpulint.spec.DomainKind;
import dev.gpulint.spec.Protocol;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The numbers a node group's facts carry, and the functions that find them. */
class NodeGroupAnalysisTest {
    private static final double GIB = 1L << 30;
    private static final Catalog CATALOG = Catalog.builtIn();

    private static List<Object> facts(String yaml) {
        Model b = new Binder().bind(new YamlReader().read(SourceFile.of("c.yaml", yaml)).documents());
        Facts out = new Facts();
        NodeGroupAnalysis analysis = new NodeGroupAnalysis(CATALOG, out);
        for (Resolved.Cluster c : new Resolver(CATALOG).clusters(b.clusters())) {
            for (Resolved.Group g : c.groups()) analysis.group(g, c.fabric());
        }
        return out.list();
    }

    private static NodeGroupFact group(List<Object> facts) {
        return facts.stream().filter(NodeGroupFact.class::isInstance).map(NodeGroupFact.class::cast).findFirst().orElseThrow();
    }

    @Test
    void nearestMemoryReadingTakesGibWrittenAsGb() {
        // 80 GiB is 85.9e9 bytes; "80 GB" means the same card
        assertEquals(80e9, dev.gpulint.derive.Resolver.nearestMemoryReading(80e9, List.of(80 * GIB)), 1);
        assertEquals(80 * GIB, dev.gpulint.derive.Resolver.nearestMemoryReading(86e9, List.of(80 * GIB)), 1);
        // B200: 180 GiB, also sold as 192 GiB; 192 GB is nearest the second variant's GB reading
        assertEquals(192e9, dev.gpulint.derive.Resolver.nearestMemoryReading(192e9, List.of(180 * GIB, 192 * GIB)), 1);
        assertEquals(0, dev.gpulint.derive.Resolver.nearestMemoryReading(80e9, List.of()));
    }

    @Test
    void neighboursAreOtherModelsOfTheFamilyWithinFivePercent() {
        Catalog.Gpu sxm = CATALOG.gpu("H100-SXM5-80GB").orElseThrow();
        List<NodeGroupFact.Variant> near = NodeGroupAnalysis.neighbours(sxm, 94 * GIB, CATALOG.gpus());
        // the 96 GB SXM5 part (2 % away) and the 94 GB NVL card, in catalog order
        assertEquals(List.of(new NodeGroupFact.Variant("H100-SXM5-96GB", 96 * GIB), new NodeGroupFact.Variant("H100-NVL-94GB", 94 * GIB)), near);
        assertTrue(NodeGroupAnalysis.neighbours(sxm, 40e9, CATALOG.gpus()).isEmpty());
    }

    @Test
    void memoryNumbersOfTheGroup() {
        NodeGroupFact g = group(facts("""
                kind: cluster
                name: c
                node_groups:
                  - name: g
                    count: 2
                    gpu: { model: H100-SXM5-80GB, count: 8, memory: 94 GB }
                """));
        assertTrue(g.isGpuKnown());
        assertEquals(94e9, g.getMemoryBytes());
        assertEquals("94 GB", g.getMemoryWritten());
        assertEquals(80 * GIB, g.getCatalogMemoryBytes());
        assertEquals(80 * GIB, g.getNearestMemoryBytes());
        assertTrue(g.getMemoryNeighbours().isEmpty(), "94 GB is 6.9% below 94 GiB");
        assertEquals(List.of(), g.getClosestGpuModels());
    }

    @Test
    void bridgedPcieCardsAndTheirDomain() {
        NodeGroupFact g = group(facts("""
                kind: cluster
                name: c
                node_groups:
                  - name: g
                    gpu: { model: A100-PCIe-80GB, count: 8 }
                    nvlink: { bridge: quads, domain_size: 8 }
                """));
        assertTrue(g.isPcieForm());
        assertEquals(2, g.getBridgeMax());
        assertEquals(4, g.getBridgeJoin());
        assertEquals(8, g.getDeclaredDomainSize());
        assertEquals(DomainKind.BRIDGE, g.getDomainKind());
        assertEquals(3, g.getNvlinkGeneration());
        assertFalse(g.isNvswitchDeclared());
    }

    @Test
    void unknownModelListsTheClosestNames() {
        NodeGroupFact g = group(facts("""
                kind: cluster
                name: c
                node_groups:
                  - name: g
                    gpu: { model: H100-SXM-80G, count: 8 }
                """));
        assertFalse(g.isGpuKnown());
        assertEquals(List.of("H100-SXM5-80GB", "A100-SXM4-80GB", "A100-SXM4-40GB"), g.getClosestGpuModels());
        assertEquals(0, g.getNearestMemoryBytes());
    }

    @Test
    void rdmaNicsCountEachEntryAndTakeTheFabricsProtocol() {
        List<Object> facts = facts("""
                kind: cluster
                name: c
                fabric: { type: infiniband }
                node_groups:
                  - name: g
                    gpu: { model: H100-SXM5-80GB, count: 8 }
                    nics:
                      - { model: ConnectX-7, count: 4 }
                      - { model: ConnectX-6 Dx, count: 2, protocol: ethernet }
                      - { model: BlueField-3, protocol: roce }
                """);
        NodeGroupFact g = group(facts);
        assertTrue(g.isNicsStated());
        assertEquals(5, g.getRdmaNicCount());
        List<Protocol> protocols = new ArrayList<>();
        for (Object o : facts) if (o instanceof NicFact n) protocols.add(n.getProtocol());
        assertEquals(List.of(Protocol.INFINIBAND, Protocol.ETHERNET, Protocol.ROCE), protocols);
    }
}
