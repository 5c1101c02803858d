package dev.gpulint.derive;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.spec.Model;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.bind.Binder;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Span;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import dev.gpulint.spec.DomainKind;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Protocol;
import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Resolving specs against the catalog and each other: NVLink domains, fabrics, jobs' sizes. */
class ResolverTest {

    private record Run(Resolver resolver, List<Resolved.Cluster> clusters, Model bound) {
        Resolved.Job job(int i) { return resolver.job(bound.jobs().get(i)); }
        Resolved.Group group(int cluster, int group) { return clusters.get(cluster).groups().get(group); }
    }

    private static Run run(String yaml) {
        var read = new YamlReader().read(SourceFile.of("t.yaml", yaml));
        var bound = new Binder().bind(read.documents());
        assertEquals(List.of(), bound.findings(), "the test input binds cleanly");
        Resolver resolver = new Resolver(Catalog.builtIn());
        return new Run(resolver, resolver.clusters(bound.clusters()), bound);
    }

    /** One cluster "c" with one node group "g" whose body is {@code group}. */
    private static Resolved.Group group(String group) {
        return run("kind: cluster\nname: c\nnode_groups:\n  - { name: g, count: 2, " + group + " }\n").group(0, 0);
    }

    // ---------------------------------------------------------------- NVLink domains

    @Test
    void sxmH100WithNvswitchIsOneDomainPerNode() {
        Resolved.Group g = group("gpu: { model: H100-SXM5-80GB, count: 8 }, nvlink: { switch: true }");
        assertEquals(DomainKind.NODE, g.domainKind());
        assertEquals(8, g.domainSize());
        assertEquals(0, g.declaredDomainSize());
        assertTrue(g.nvswitch());
        assertTrue(g.nvlinkDeclared());
        assertTrue(g.nvlinkDomain());
        assertEquals("H100-SXM5-80GB", g.gpu().name());
        assertEquals("cluster:c/node_groups[g]", g.id());
        assertEquals("t.yaml:4:63", g.domainSpan().toString());
    }

    @Test
    void gb200IsARackOf72() {
        Resolved.Group g = group("gpu: { model: GB200, count: 4 }");
        assertEquals(DomainKind.RACK, g.domainKind());
        assertEquals(72, g.domainSize());
        assertFalse(g.nvlinkDeclared());
        assertTrue(g.nvlinkDomain());
    }

    @Test
    void infinityFabricIsAScaleUpDomainButNotNvlink() {
        Resolved.Group mi = group("gpu: { model: MI300X, count: 8 }");
        assertEquals(DomainKind.INFINITY_FABRIC, mi.domainKind());
        assertEquals(8, mi.domainSize());
        assertTrue(mi.scaleUpDomain());
        assertFalse(mi.nvlinkDomain());
        assertTrue(group("gpu: { model: H100-SXM5-80GB, count: 8 }, nvlink: { switch: true }").scaleUpDomain());
        assertFalse(group("gpu: { model: A100-PCIe-80GB, count: 8 }, nvlink: { bridge: pairs }").scaleUpDomain());
    }

    @Test
    void pcieA100IsBridgedInPairsOrNotAtAll() {
        Resolved.Group pairs = group("gpu: { model: A100-PCIe-80GB, count: 8 }, nvlink: { bridge: pairs }");
        assertEquals(DomainKind.BRIDGE, pairs.domainKind());
        assertEquals(2, pairs.domainSize());
        assertEquals("pairs", pairs.bridge());
        assertTrue(pairs.nvlinkDeclared());
        assertFalse(pairs.nvlinkDomain());

        Resolved.Group none = group("gpu: { model: A100-PCIe-80GB, count: 8 }");
        assertEquals(DomainKind.NONE, none.domainKind());
        assertEquals(1, none.domainSize());
        assertNull(none.bridge());
        assertFalse(none.nvlinkDeclared());

        Resolved.Group bridgeNone = group("gpu: { model: A100-PCIe-80GB, count: 8 }, nvlink: { bridge: none }");
        assertEquals(DomainKind.NONE, bridgeNone.domainKind());
        assertEquals(1, bridgeNone.domainSize());
        assertFalse(bridgeNone.nvlinkDeclared(), "bridge: none declares no NVLink");
    }

    @Test
    void aDeclaredDomainSizeWins() {
        Resolved.Group rack = group("gpu: { model: H100-SXM5-80GB, count: 8 }, nvlink: { domain_size: 16 }");
        assertEquals(DomainKind.RACK, rack.domainKind());
        assertEquals(16, rack.domainSize());
        assertEquals(16, rack.declaredDomainSize());
        assertEquals("t.yaml:4:91", rack.domainSpan().toString());

        Resolved.Group smaller = group("gpu: { model: H100-SXM5-80GB, count: 8 }, nvlink: { domain_size: 4 }");
        assertEquals(DomainKind.BRIDGE, smaller.domainKind());
        assertEquals(4, smaller.domainSize());

        Resolved.Group same = group("gpu: { model: H100-SXM5-80GB, count: 8 }, nvlink: { domain_size: 8 }");
        assertEquals(DomainKind.NODE, same.domainKind());
        assertEquals(8, same.domainSize());

        Resolved.Group bridgedCard = group("gpu: { model: A100-PCIe-80GB, count: 2 }, nvlink: { domain_size: 2 }");
        assertEquals(DomainKind.BRIDGE, bridgedCard.domainKind(), "a bridged card's domain is a bridge even at gpn");
    }

    @Test
    void anUnknownGpuHasAnUnknownDomainUnlessNvlinkIsDeclared() {
        Resolved.Group unknown = group("gpu: { model: Foo-9000, count: 8 }");
        assertNull(unknown.gpu());
        assertEquals(DomainKind.UNKNOWN, unknown.domainKind());
        assertEquals(0, unknown.domainSize());
        assertFalse(unknown.nvlinkDomain());

        Resolved.Group switched = group("gpu: { model: Foo-9000, count: 8 }, nvlink: { switch: true }");
        assertEquals(DomainKind.NODE, switched.domainKind());
        assertEquals(8, switched.domainSize());

        Resolved.Group bandwidth = group("gpu: { model: Foo-9000, count: 4 }, nvlink: { bandwidth: 900 GB/s }");
        assertEquals(DomainKind.NODE, bandwidth.domainKind());
        assertEquals(4, bandwidth.domainSize());
    }

    @Test
    void aGpuWithoutNvlinkIsADomainOfOne() {
        Resolved.Group l4 = group("gpu: { model: L4, count: 8 }");
        assertEquals(DomainKind.NONE, l4.domainKind());
        assertEquals(1, l4.domainSize());
    }

    // ---------------------------------------------------------------- memory

    @Test
    void memoryMatchesInGbOrGibButNotAnotherSize() {
        assertTrue(group("gpu: { model: H100-SXM5-80GB, count: 8, memory: 80 GB }").memoryMatches());
        assertTrue(group("gpu: { model: H100-SXM5-80GB, count: 8, memory: 80 GiB }").memoryMatches());
        assertTrue(group("gpu: { model: H100-SXM5-80GB, count: 8, memory: 85.9 GB }").memoryMatches());
        assertTrue(group("gpu: { model: H100-SXM5-80GB, count: 8 }").memoryMatches(), "none declared");
        assertTrue(group("gpu: { model: Foo-9000, count: 8, memory: 7 GB }").memoryMatches(), "unknown model");
        assertFalse(group("gpu: { model: H100-SXM5-80GB, count: 8, memory: 40 GB }").memoryMatches());
        assertFalse(group("gpu: { model: H100-SXM5-80GB, count: 8, memory: 94 GB }").memoryMatches());
        assertTrue(group("gpu: { model: B200-SXM-180GB, count: 8, memory: 192 GB }").memoryMatches(), "an alternate");
    }

    // ---------------------------------------------------------------- fabric

    private static Resolved.Cluster fabric(String fabric, String nics) {
        return run("kind: cluster\nname: c\n" + fabric + "node_groups:\n  - { name: g, count: 2, gpu: { model: H100-SXM5-80GB, count: 8 }"
                + nics + " }\n").clusters().get(0);
    }

    @Test
    void roceFromTheFabricType() {
        Resolved.Cluster c = fabric("fabric: { type: roce, roce: { pfc: { enabled: true, priority: 5 } } }\n", "");
        assertEquals(Protocol.ROCE, c.fabric());
        assertTrue(c.roce());
        assertTrue(c.rdma());
        assertEquals("fabric type roce", c.roceSource());
        assertEquals("t.yaml:3:17", c.roceSpan().toString());
        assertEquals(5, c.pfcPriority());
        assertEquals("t.yaml:3:63", c.pfcPrioritySpan().toString());
    }

    @Test
    void roceFromANicProtocol() {
        Resolved.Cluster c = fabric("fabric: { type: ethernet }\n",
                ", nics: [ { model: ConnectX-7, count: 8, protocol: roce } ]");
        assertEquals(Protocol.ETHERNET, c.fabric());
        assertTrue(c.roce());
        assertTrue(c.rdma());
        assertEquals("NIC ConnectX-7 protocol roce", c.roceSource());
        assertEquals("t.yaml:5:117", c.roceSpan().toString());
        assertEquals(-1, c.pfcPriority());
        assertNull(c.pfcPrioritySpan());

        Resolved.Cluster unnamed = fabric("", ", nics: [ { count: 8, protocol: roce } ]");
        assertNull(unnamed.fabric());
        assertEquals("NIC protocol roce", unnamed.roceSource());
    }

    @Test
    void infinibandIsRdmaButNotRoceAndEthernetIsNeither() {
        Resolved.Cluster ib = fabric("fabric: { type: infiniband }\n", "");
        assertTrue(ib.rdma());
        assertFalse(ib.roce());
        assertNull(ib.roceSource());
        assertNull(ib.roceSpan());

        Resolved.Cluster ibNic = fabric("fabric: { type: ethernet }\n", ", nics: [ { count: 8, protocol: infiniband } ]");
        assertTrue(ibNic.rdma(), "an InfiniBand NIC is RDMA");
        assertFalse(ibNic.roce());

        Resolved.Cluster eth = fabric("fabric: { type: ethernet }\n", ", nics: [ { count: 8, protocol: ethernet } ]");
        assertFalse(eth.rdma());
        assertFalse(eth.roce());

        Resolved.Cluster none = fabric("", "");
        assertNull(none.fabric());
        assertFalse(none.rdma());
        assertEquals(-1, none.pfcPriority());
    }

    @Test
    void aNicsOwnProtocolWinsOverTheFabrics() {
        Resolved.Cluster c = fabric("fabric: { type: infiniband }\n", ", nics: [ { count: 8, protocol: ethernet }, { count: 1 } ]");
        List<Specs.Nic> nics = c.spec().nodeGroups().get(0).nics();
        assertEquals(Protocol.ETHERNET, Resolver.protocol(nics.get(0), c.fabric()));
        assertEquals(Protocol.INFINIBAND, Resolver.protocol(nics.get(1), c.fabric()));
        assertNull(Resolver.protocol(nics.get(1), null));
    }

    // ---------------------------------------------------------------- jobs

    private static final String TWO_GROUPS = """
            kind: cluster
            name: c
            node_groups:
              - { name: a, count: 4, gpu: { model: H100-SXM5-80GB, count: 8 } }
              - { name: b, count: 4, gpu: { model: A100-SXM4-80GB, count: 4 } }
            ---
            kind: cluster
            name: one
            node_groups:
              - { name: only, count: 4, gpu: { model: H100-SXM5-80GB, count: 8 } }
            ---
            """;

    @Test
    void aJobRunsOnItsNamedNodeGroupOrTheClustersOnlyOne() {
        Run r = run(TWO_GROUPS + """
                kind: training_job
                name: named
                cluster: c
                node_group: b
                nodes: 3
                ---
                kind: training_job
                name: only
                cluster: one
                nodes: 2
                ---
                kind: training_job
                name: ambiguous
                cluster: c
                nodes: 2
                ---
                kind: training_job
                name: missing
                cluster: c
                node_group: z
                nodes: 2
                ---
                kind: training_job
                name: nocluster
                cluster: nowhere
                nodes: 2
                gpus_per_node: 8
                """);
        Resolved.Job named = r.job(0);
        assertEquals("b", named.group().name());
        assertEquals("c", named.cluster().name());
        assertEquals(4, named.gpusPerNode());
        assertEquals(12, named.totalGpus());
        assertEquals("4 GPUs per node in node group 'b' of cluster 'c'", named.gpusPerNodeSource());
        assertEquals("t.yaml:5:63", named.gpusPerNodeSpan().toString());

        Resolved.Job only = r.job(1);
        assertEquals("only", only.group().name());
        assertEquals(16, only.totalGpus());

        Resolved.Job ambiguous = r.job(2);
        assertEquals("c", ambiguous.cluster().name());
        assertNull(ambiguous.group(), "two groups and none named");
        assertEquals(0, ambiguous.gpusPerNode());
        assertEquals(0, ambiguous.totalGpus());
        assertNull(ambiguous.gpusPerNodeSource());

        Resolved.Job missing = r.job(3);
        assertNull(missing.group());
        assertEquals(0, missing.totalGpus());

        Resolved.Job nocluster = r.job(4);
        assertNull(nocluster.cluster());
        assertNull(nocluster.group());
        assertEquals(8, nocluster.gpusPerNode());
        assertEquals(16, nocluster.totalGpus());
    }

    @Test
    void aJobsGpusPerNodeWinsOverTheGroups() {
        Resolved.Job j = run(TWO_GROUPS + """
                kind: training_job
                name: j
                cluster: one
                nodes: 2
                gpus_per_node: 4
                """).job(0);
        assertEquals(4, j.gpusPerNode());
        assertEquals(8, j.totalGpus());
        assertEquals("gpus_per_node of job 'j'", j.gpusPerNodeSource());
        assertEquals("t.yaml:16:16", j.gpusPerNodeSpan().toString());
    }

    @Test
    void theTotalSaturatesInsteadOfWrapping() {
        Run r = run("kind: training_job\nname: j\nnodes: 2\ngpus_per_node: 8\n");
        Specs.Job j = r.bound().jobs().get(0);
        Specs.Job huge = new Specs.Job(j.name(), j.file(), j.cluster(), j.nodeGroup(),
                new Located<>(Long.MAX_VALUE / 2, Span.at("t.yaml", 3, 8)), new Located<>(3L, Span.at("t.yaml", 4, 16)),
                j.model(), j.parallelism(), j.batch(), j.optimizer(), j.network(), j.stepTime(), j.env(), j.span(), j.origin(),
                j.recompute(), j.offload(), j.kernels(), j.fp8Scaling(), j.fp8ParamGather(), j.fp8LayersBf16());
        assertEquals(Long.MAX_VALUE, r.resolver().job(huge).totalGpus());
        assertEquals(Long.MAX_VALUE / 2, r.resolver().job(huge).nodes());
    }

    private static Resolved.Job job(String body) {
        return run("kind: training_job\nname: j\n" + body).job(0);
    }

    @Test
    void dpIsDerivedOnlyWhenTheGpusDivideWhole() {
        Resolved.Job whole = job("nodes: 4\ngpus_per_node: 8\nparallelism: { tp: 4, pp: 2 }\n");
        assertEquals(32, whole.totalGpus());
        assertEquals(0, whole.dp());
        assertEquals(4, whole.dpEffective());
        assertEquals(1, whole.cp());
        assertEquals(1, whole.ep());
        assertTrue(whole.parallelismStated());

        Resolved.Job withCp = job("nodes: 4\ngpus_per_node: 8\nparallelism: { tp: 4, cp: 2, ep: 8 }\n");
        assertEquals(4, withCp.dpEffective(), "ep does not divide the GPUs");
        assertEquals(8, withCp.ep());

        Resolved.Job notWhole = job("nodes: 1\ngpus_per_node: 8\nparallelism: { tp: 3 }\n");
        assertEquals(0, notWhole.dpEffective());

        Resolved.Job stated = job("nodes: 1\ngpus_per_node: 8\nparallelism: { tp: 3, dp: 5 }\n");
        assertEquals(5, stated.dp());
        assertEquals(5, stated.dpEffective(), "a stated dp is kept even when it does not fit");

        Resolved.Job unknownGpus = job("parallelism: { tp: 2 }\n");
        assertEquals(0, unknownGpus.totalGpus());
        assertEquals(0, unknownGpus.dpEffective());

        Resolved.Job none = job("nodes: 2\ngpus_per_node: 8\n");
        assertFalse(none.parallelismStated());
        assertEquals(1, none.tp());
        assertEquals(1, none.pp());
        assertEquals(16, none.dpEffective());

        Resolved.Job onlyEp = job("nodes: 2\ngpus_per_node: 8\nparallelism: { ep: 4 }\n");
        assertFalse(onlyEp.parallelismStated(), "ep alone states no tp, pp, cp or dp");
    }

    @Test
    void theRankOrderDefaultsToMegatronsAndIsCompletedWhenStated() {
        assertEquals(List.of(ParallelDim.TP, ParallelDim.CP, ParallelDim.EP, ParallelDim.DP, ParallelDim.PP), job("nodes: 1\n").order());
        assertEquals(ParallelDim.DEFAULT_ORDER, job("nodes: 1\nparallelism: { tp: 2 }\n").order());
        assertEquals(List.of(ParallelDim.TP, ParallelDim.DP, ParallelDim.PP, ParallelDim.CP, ParallelDim.EP), job("nodes: 1\nparallelism: { order: tp-dp-pp }\n").order());
    }

    @Test
    void jobsUseTheFirstClusterOfADuplicateName() {
        Run r = run("""
                kind: cluster
                name: c
                node_groups:
                  - { name: g, count: 2, gpu: { model: H100-SXM5-80GB, count: 8 } }
                ---
                kind: cluster
                name: c
                node_groups:
                  - { name: g, count: 2, gpu: { model: A100-SXM4-80GB, count: 4 } }
                ---
                kind: training_job
                name: j
                cluster: c
                nodes: 2
                """);
        assertEquals(2, r.clusters().size());
        assertTrue(r.clusters().get(0).first());
        assertFalse(r.clusters().get(1).first());
        Resolved.Job j = r.job(0);
        assertSame(r.clusters().get(0), j.cluster());
        assertEquals("H100-SXM5-80GB", j.group().gpu().name());
        assertEquals(16, j.totalGpus());
    }
}
