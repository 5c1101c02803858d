package dev.gpulint.derive.consist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.derive.Fixture;
import dev.gpulint.facts.GroupFitFact;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A job's nodes and GPUs per node beside its node group's count and gpu.count (CONSIST012's fact). */
class GroupFitAnalysisTest {
    private static final String CLUSTER = """
            kind: cluster
            name: selene
            node_groups:
              - name: dgx-h100
                count: 16
                gpu: { model: H100-SXM5-80GB, count: 8 }
            ---
            """;

    private static List<GroupFitFact> facts(String job) {
        return Fixture.of(CLUSTER + job).jobFacts(GroupFitFact.class, GroupFitAnalysis::job);
    }

    @Test
    void theJobsCountsBesideTheGroupsWithTheirPlaces() {
        GroupFitFact f = facts("""
                kind: training_job
                name: j
                cluster: selene
                nodes: 20
                gpus_per_node: 16
                """).get(0);
        assertEquals("dgx-h100", f.getGroupName(), "the cluster's only group, though the job names none");
        assertEquals("selene", f.getClusterName());
        assertEquals(20, f.getNodes());
        assertEquals(11, f.getNodesSpan().startLine());
        assertEquals(16, f.getGroupNodes());
        assertEquals(5, f.getGroupNodesSpan().startLine());
        assertEquals(4, f.getMissingNodes(), "20 − 16");
        assertEquals(16, f.getGpusPerNode());
        assertEquals(8, f.getGroupGpus());
        assertEquals(6, f.getGroupGpusSpan().startLine());
        assertEquals("job:j/node-group", f.identity());
    }

    @Test
    void countsTheJobDoesNotStateAreZeroAndAJobWithoutAGroupHasNoFact() {
        GroupFitFact f = facts("""
                kind: training_job
                name: j
                cluster: selene
                """).get(0);
        assertEquals(0, f.getNodes());
        assertNull(f.getNodesSpan());
        assertEquals(0, f.getGpusPerNode(), "the group's 8 are no request of the job's");
        assertEquals(List.of(), facts("""
                kind: training_job
                name: j
                nodes: 64
                """));
    }
}
