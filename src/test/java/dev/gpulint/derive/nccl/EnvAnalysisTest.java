package dev.gpulint.derive.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.bind.Binder;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolver;
import dev.gpulint.facts.EnvFact;
import dev.gpulint.facts.EnvFamily;
import dev.gpulint.facts.NcclVariable;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnvAnalysisTest {

    private static final String ROCE = """
            kind: cluster
            name: roce
            fabric: { type: roce, roce: { pfc: { enabled: true, priority: 5 } } }
            node_groups:
              - { name: g, count: 2, gpu: { model: H100-SXM5-80GB, count: 8 }, nics: [ { model: ConnectX-7, count: 8, protocol: roce } ] }
            ---
            """;

    /** The EnvFacts of the one job in {@code yaml}, by variable name. */
    private static Map<String, EnvFact> facts(String yaml) {
        var read = new YamlReader().read(SourceFile.of("t.yaml", yaml));
        var bound = new Binder().bind(read.documents());
        Resolver resolver = new Resolver(Catalog.builtIn());
        resolver.clusters(bound.clusters());
        Facts out = new Facts();
        EnvAnalysis.job(resolver.job(bound.jobs().get(0)), out);
        Map<String, EnvFact> by = new LinkedHashMap<>();
        for (Object o : out.list()) if (o instanceof EnvFact e) by.put(e.getName(), e);
        return by;
    }

    @Test
    void valuesAreParsedAndTheClusterIsRead() {
        Map<String, EnvFact> f = facts(ROCE + """
                kind: training_job
                name: j
                cluster: roce
                nodes: 2
                env: { NCCL_IB_TC: " 41 ", NCCL_NET_GDR_LEVEL: loc, NCCL_IB_DISABLE: "Yes", NCCL_SOCKET_IFNAME: "=lo, lo0" }
                """);
        EnvFact tc = f.get("NCCL_IB_TC");
        assertEquals("41", tc.getValue());
        assertEquals(41, tc.getTcByte());
        assertEquals(10, tc.getTcDscp());
        assertEquals(1, tc.getTcPriority());
        assertEquals(5, tc.getPfcPriority());
        assertEquals("fabric.roce.pfc.priority", tc.getPfcSource());
        assertEquals("roce", tc.getClusterName());
        assertEquals(2, tc.getNodes());
        assertTrue(tc.isRdmaFabric());
        assertTrue(tc.isGdrCapable());
        assertTrue(tc.isNvlink());
        assertEquals("LOC", f.get("NCCL_NET_GDR_LEVEL").getUpperValue());
        assertTrue(f.get("NCCL_IB_DISABLE").isOn());
        assertFalse(f.get("NCCL_NET_GDR_LEVEL").isOn());
        assertEquals(List.of("lo", "lo0"), f.get("NCCL_SOCKET_IFNAME").getInterfaces());
        assertEquals(-1, f.get("NCCL_IB_DISABLE").getTcByte());
        assertTrue(f.get("NCCL_IB_DISABLE").getInterfaces().isEmpty());
    }

    @Test
    void withoutAStatedPriorityNvidiasDefaultIsAssumed() {
        Map<String, EnvFact> f = facts("""
                kind: cluster
                name: r
                fabric: { type: roce }
                node_groups:
                  - { name: g, count: 2, gpu: { model: H100-SXM5-80GB, count: 8 } }
                ---
                kind: training_job
                name: j
                cluster: r
                nodes: 2
                env: { NCCL_IB_TC: "256" }
                """);
        EnvFact tc = f.get("NCCL_IB_TC");
        assertEquals(3, tc.getPfcPriority());
        assertEquals("default", tc.getPfcSource());
        assertEquals(-1, tc.getTcByte(), "256 is no byte");
        assertEquals(-1, tc.getTcPriority());
    }

    @Test
    void withoutAClusterThereIsNoPfcPriority() {
        EnvFact e = facts("""
                kind: training_job
                name: j
                nodes: 1
                env: { NCCL_DEBUG_SUBSYS: ALL, NCCL_IB_HCAA: mlx5 }
                """).get("NCCL_IB_HCAA");
        assertNull(e.getClusterName());
        assertEquals(-1, e.getPfcPriority());
        assertNull(e.getPfcSource());
        assertFalse(e.isRdmaFabric());
        assertFalse(e.isKnownNccl());
        assertEquals("NCCL_IB_HCA", e.getSuggestion());
    }

    @Test
    void catalogNamesAreKnown() {
        Map<String, EnvFact> f = facts("""
                kind: training_job
                name: j
                env: { NCCL_DEBUG: INFO, NCCL_IB_DISABLE: "1" }
                """);
        assertTrue(f.get("NCCL_DEBUG").isKnownNccl());
        assertNull(f.get("NCCL_DEBUG").getSuggestion());
        assertFalse(f.get("NCCL_DEBUG").isDebugOnly());
        assertTrue(f.get("NCCL_IB_DISABLE").isDebugOnly());
    }

    @Test
    void variablesFamiliesAndValueWordsAreTyped() {
        Map<String, EnvFact> f = facts("""
                kind: training_job
                name: j
                env: { NCCL_P2P_LEVEL: "0", NCCL_NET_GDR_LEVEL: Loc, FI_EFA_USE_DEVICE_RDMA: "off", RDMAV_FORK_SAFE: "1",
                       NCCL_SOCKET_IFNAME: "lo,lo0", nccl_ib_tc: "106", NCCL_DEBUG: "PHB" }
                """);
        assertEquals(NcclVariable.NCCL_P2P_LEVEL, f.get("NCCL_P2P_LEVEL").getVariable());
        assertEquals(NcclVariable.OTHER, f.get("nccl_ib_tc").getVariable(), "names are case-sensitive");
        assertEquals(EnvFamily.OTHER, f.get("nccl_ib_tc").getFamily());
        assertEquals(EnvFamily.LIBIBVERBS, f.get("RDMAV_FORK_SAFE").getFamily());
        assertEquals(EnvFamily.NCCL, f.get("NCCL_DEBUG").getFamily());
        assertTrue(f.get("NCCL_P2P_LEVEL").isLocLevel(), "0 is LOC's number");
        assertTrue(f.get("NCCL_NET_GDR_LEVEL").isLocLevel(), "in any case");
        assertFalse(f.get("NCCL_DEBUG").isLocLevel());
        assertTrue(f.get("FI_EFA_USE_DEVICE_RDMA").isOff());
        assertTrue(f.get("NCCL_P2P_LEVEL").isOff());
        assertFalse(f.get("RDMAV_FORK_SAFE").isOff());
        assertTrue(f.get("NCCL_SOCKET_IFNAME").isLoopbackOnly());
        assertFalse(facts("""
                kind: training_job
                name: j
                env: { NCCL_SOCKET_IFNAME: "lo, ,lo0" }
                """).get("NCCL_SOCKET_IFNAME").isLoopbackOnly(), "a blank name is no loopback");
    }

    @Test
    void interfaceListsAndTrafficClassBytes() {
        assertEquals(List.of("eth0", "ib0"), EnvAnalysis.interfaceNames("^eth0,ib0"));
        assertEquals(List.of("lo", ""), EnvAnalysis.interfaceNames("lo, "));
        assertEquals(List.of("lo"), EnvAnalysis.interfaceNames("lo,"));
        assertTrue(EnvAnalysis.interfaceNames("").isEmpty());
        assertEquals(106, EnvAnalysis.trafficClassByte("106"));
        assertEquals(0, EnvAnalysis.trafficClassByte("0"));
        assertEquals(-1, EnvAnalysis.trafficClassByte("-1"));
        assertEquals(-1, EnvAnalysis.trafficClassByte("high"));
    }

    /**
     * One analysis reads an environment once for every job that shares it (the plan's candidate layouts of one job):
     * what a variable says by itself (did-you-mean, fix, whole number, line removals) is the same for each, and what
     * depends on the job and its cluster (the name, the fabric) is each job's own.
     */
    @Test
    void jobsSharingAnEnvironmentShareItsReadingButNotTheirCluster() {
        var read = new YamlReader().read(SourceFile.of("t.yaml", ROCE + """
                kind: cluster
                name: tcp
                fabric: { type: ethernet }
                node_groups:
                  - { name: g, count: 2, gpu: { model: H100-SXM5-80GB, count: 8 }, nics: [ { model: ConnectX-7, count: 2, protocol: ethernet } ] }
                ---
                kind: training_job
                name: j
                cluster: roce
                nodes: 2
                env: { NCCL_IB_HCAA: mlx5_0, NCCL_IB_TIMEOUT: "22" }
                """));
        var bound = new Binder().bind(read.documents());
        Resolver resolver = new Resolver(Catalog.builtIn());
        resolver.clusters(bound.clusters());
        var j = bound.jobs().get(0);
        var other = new dev.gpulint.spec.Specs.Job(new dev.gpulint.spec.Located<>("k", j.name().span()), j.file(),
                new dev.gpulint.spec.Located<>("tcp", j.cluster().span()), j.nodeGroup(), j.nodes(), j.gpusPerNode(), j.model(),
                j.parallelism(), j.batch(), j.optimizer(), j.network(), j.stepTime(), j.env(), j.span(), j.origin(), j.recompute(),
                j.offload(), j.kernels(), j.fp8Scaling(), j.fp8ParamGather(), j.fp8LayersBf16());
        EnvAnalysis analysis = new EnvAnalysis();
        Facts out = new Facts();
        analysis.analyse(resolver.job(j), out);
        analysis.analyse(resolver.job(other), out);
        List<EnvFact> facts = out.list().stream().filter(o -> o instanceof EnvFact).map(o -> (EnvFact) o).toList();
        assertEquals(4, facts.size());
        for (int i = 0; i < 2; i++) {
            EnvFact mine = facts.get(i), its = facts.get(i + 2);
            assertEquals("j", mine.getJobName());
            assertEquals("k", its.getJobName());
            assertEquals(mine.getName(), its.getName());
            assertEquals(mine.getSuggestion(), its.getSuggestion());
            assertEquals(mine.getFixedName(), its.getFixedName());
            assertEquals(mine.getWholeNumber(), its.getWholeNumber());
            assertEquals(mine.getLineRemovals(), its.getLineRemovals());
            assertTrue(mine.isRdmaFabric(), "job j runs on the RoCE cluster");
            assertFalse(its.isRdmaFabric(), "job k runs on the TCP cluster: the shared reading keeps no cluster");
        }
        assertEquals("NCCL_IB_HCA", facts.get(2).getSuggestion());
        assertEquals("NCCL_IB_HCA", facts.get(2).getFixedName());
        assertEquals(22, facts.get(3).getWholeNumber());
        // the same facts as each job analysed alone
        Facts alone = new Facts();
        EnvAnalysis.job(resolver.job(other), alone);
        List<EnvFact> single = alone.list().stream().filter(o -> o instanceof EnvFact).map(o -> (EnvFact) o).toList();
        java.util.function.Function<EnvFact, String> seen = e -> e.getJobName() + " " + e.getName() + " " + e.getSuggestion() + " "
                + e.getFixedName() + " " + e.getWholeNumber() + " " + e.isRdmaFabric() + " " + e.getLineRemovals();
        assertEquals(single.stream().map(seen).toList(), facts.subList(2, 4).stream().map(seen).toList());
    }
}
