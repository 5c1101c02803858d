package dev.gpulint.derive.evid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.bind.Binder;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.facts.Collective;
import dev.gpulint.facts.EvidenceFact;
import dev.gpulint.facts.IbPortFact;
import dev.gpulint.facts.TopoPath;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.evidence.Evidence;
import dev.gpulint.read.evidence.EvidenceReader;
import dev.gpulint.read.yaml.YamlReader;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The EVID analysis: a capture is linked to the one node group whose hardware it matches, and what it shows
 * stands beside what that node group declares (ibstat ports against the declared NICs here).
 */
class EvidenceAnalysisTest {

    private static final String CLUSTER = """
            kind: cluster
            name: pod
            fabric: { type: infiniband }
            node_groups:
              - name: dgx
                count: 2
                gpu: { model: H100-SXM5-80GB, count: 8 }
                nics: [{ model: ConnectX-7, count: 2, speed: 400 Gb/s, protocol: infiniband }]
            """;

    /** ibstat's layout: a CA block per adapter, a Port block per port, tab-indented. */
    private static String port(String ca, String state, String physical, int rate) {
        return "CA '" + ca + "'\n\tCA type: MT4129\n\tNumber of ports: 1\n\tPort 1:\n\t\tState: " + state
                + "\n\t\tPhysical state: " + physical + "\n\t\tRate: " + rate + "\n\t\tLink layer: InfiniBand\n";
    }

    private static List<Object> facts(String ibstat) {
        var bound = new Binder().bind(new YamlReader().read(SourceFile.of("pod.yaml", CLUSTER)).documents());
        List<Evidence> evidence = EvidenceReader.read(SourceFile.of("node-07.ibstat.txt", ibstat)).evidence();
        assertEquals(1, evidence.size(), "the capture reads as ibstat output");
        return new EvidenceAnalysis(Catalog.builtIn(), bound.clusters(), bound.jobs(), f -> Optional.empty()).facts(evidence);
    }

    private static <T> List<T> only(List<Object> facts, Class<T> type) {
        return facts.stream().filter(type::isInstance).map(type::cast).toList();
    }

    @Test
    void portsOfTheOneMatchingNodeGroupAreLinkedWithWhatItDeclares() {
        List<Object> facts = facts(port("mlx5_0", "Active", "LinkUp", 400) + port("mlx5_1", "Down", "Polling", 10));
        EvidenceFact e = only(facts, EvidenceFact.class).get(0);
        assertTrue(e.isLinked(), e.toString());
        assertEquals(Evidence.Kind.IBSTAT.name(), e.getKind());
        assertFalse(e.isLinkUnknown() || e.isLinkedToJobWithoutGroup() || e.isOtherGpuModel());
        List<IbPortFact> ports = only(facts, IbPortFact.class);
        assertEquals(2, ports.size());
        IbPortFact up = ports.get(0), down = ports.get(1);
        assertEquals("mlx5_0", up.getAdapter());
        assertTrue(up.isActive() && up.isLinkUp());
        assertEquals(400, up.getRateGbps());
        assertEquals("dgx", up.getNodeGroup());
        assertEquals(400, up.getDeclaredGbps());
        assertFalse(down.isActive());
        assertFalse(down.isLinkUp());
        assertEquals("Polling", down.getPhysicalState());
        assertEquals(13, down.getStateSpan().startLine(), "the second CA block's State line");
        assertTrue(up.isStatePrinted());
        assertFalse(up.isOtherLayer(), "InfiniBand printed, infiniband declared");
    }

    @Test
    void matrixCellsAndTestNamesReadAsTheirEnums() {
        assertEquals(TopoPath.PHB, TopoPath.of("PHB"));
        assertEquals(null, TopoPath.of("NV18"));
        assertTrue(TopoPath.PIX.distance() < TopoPath.SYS.distance());
        assertEquals(Collective.REDUCE_SCATTER, Collective.of("reduce_scatter"));
        assertEquals(Collective.OTHER, Collective.of(""));
        assertEquals(Collective.OTHER, Collective.of("ALL_REDUCE"), "nccl-tests names are lower case");
    }
}
