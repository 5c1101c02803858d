package dev.gpulint.derive.par;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.Fixture;
import dev.gpulint.facts.JobFact;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The PAR family's job fact: sizes from the resolver, the model's shape and the batch from the spec. */
class JobAnalysisTest {

    private static final String CLUSTER = """
            kind: cluster
            name: c
            node_groups:
              - { name: a, count: 4, gpu: { model: H100-SXM5-80GB, count: 8 } }
              - { name: b, count: 4, gpu: { model: A100-SXM4-80GB, count: 4 } }
            ---
            """;

    private static JobFact fact(String yaml) {
        List<JobFact> f = Fixture.of(yaml).jobFacts(JobFact.class, JobAnalysis::job);
        assertEquals(1, f.size());
        return f.get(0);
    }

    @Test
    void everyFieldComesThrough() {
        JobFact f = fact(CLUSTER + """
                kind: training_job
                name: llama
                cluster: c
                node_group: a
                nodes: 4
                model: { parameters: 70B, layers: 80, attention_heads: 64, kv_heads: 8, seq_length: 4096, experts: 8 }
                parallelism: { tp: 8, pp: 2, cp: 1, ep: 2, virtual_pp: 5, sequence_parallel: true }
                batch: { micro_batch_size: 1, global_batch_size: 512 }
                """);
        assertEquals("llama", f.getName());
        assertEquals("t.yaml", f.getFile());
        assertEquals("t.yaml:8:7", f.getNameSpan().toString());
        assertEquals(0, f.getOrdinal());
        assertEquals("c", f.getClusterName());
        assertTrue(f.isClusterResolved());
        assertEquals(2, f.getClusterGroupCount());
        assertEquals("a, b", f.getClusterGroupNames());
        assertEquals("a", f.getNodeGroupName());
        assertTrue(f.isGroupResolved());
        assertEquals(4, f.getNodes());
        assertEquals(8, f.getGpusPerNode());
        assertEquals("8 GPUs per node in node group 'a' of cluster 'c'", f.getGpusPerNodeSource());
        assertEquals(32, f.getTotalGpus());
        assertEquals(8, f.getTp());
        assertEquals(2, f.getPp());
        assertEquals(1, f.getCp());
        assertEquals(2, f.getEp());
        assertEquals(0, f.getDp());
        assertEquals(2, f.getDpEffective());
        assertFalse(f.isDpStated());
        assertTrue(f.isParallelismStated());
        assertEquals("t.yaml:13:20", f.getTpSpan().toString());
        assertNull(f.getDpSpan());
        assertEquals(80, f.getLayers());
        assertEquals(5, f.getVirtualPp());
        assertEquals(64, f.getAttentionHeads());
        assertEquals(8, f.getKvHeads());
        assertEquals(8, f.getExperts());
        assertEquals(4096, f.getSeqLength());
        assertTrue(f.isSequenceParallel());
        assertEquals(1, f.getMicroBatchSize());
        assertEquals(512, f.getGlobalBatchSize());
    }

    @Test
    void aBareJobHasDefaults() {
        JobFact f = fact("kind: training_job\nname: j\ncluster: nowhere\n");
        assertEquals("nowhere", f.getClusterName());
        assertFalse(f.isClusterResolved());
        assertEquals(0, f.getClusterGroupCount());
        assertEquals("", f.getClusterGroupNames());
        assertNull(f.getNodeGroupName());
        assertFalse(f.isGroupResolved());
        assertEquals(0, f.getNodes());
        assertNull(f.getNodesSpan());
        assertEquals(0, f.getTotalGpus());
        assertEquals(1, f.getTp());
        assertEquals(1, f.getPp());
        assertEquals(0, f.getDpEffective());
        assertFalse(f.isParallelismStated());
        assertNull(f.getParallelismSpan());
        assertEquals(0, f.getLayers());
        assertEquals(1, f.getVirtualPp());
        assertEquals(0, f.getAttentionHeads());
        assertFalse(f.isSequenceParallel());
        assertEquals(0, f.getMicroBatchSize());
        assertEquals(0, f.getGlobalBatchSize());
    }

    @Test
    void anUnresolvedNodeGroupIsKeptByName() {
        JobFact f = fact(CLUSTER + "kind: training_job\nname: j\ncluster: c\nnode_group: z\nnodes: 2\n");
        assertTrue(f.isClusterResolved());
        assertEquals("z", f.getNodeGroupName());
        assertEquals("t.yaml:10:13", f.getNodeGroupSpan().toString());
        assertFalse(f.isGroupResolved());
        assertEquals(0, f.getGpusPerNode());
    }

    @Test
    void aStatedDpIsKept() {
        JobFact f = fact("kind: training_job\nname: j\nnodes: 2\ngpus_per_node: 8\nparallelism: { tp: 4, dp: 4 }\n");
        assertEquals(4, f.getDp());
        assertEquals(4, f.getDpEffective());
        assertTrue(f.isDpStated());
        assertEquals("gpus_per_node of job 'j'", f.getGpusPerNodeSource());
        assertEquals("t.yaml:5:27", f.getDpSpan().toString());
    }
}
