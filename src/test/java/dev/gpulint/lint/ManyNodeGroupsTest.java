package dev.gpulint.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.core.Finding;
import dev.gpulint.read.SourceFile;
import java.util.List;
import org.junit.jupiter.api.Test;
import dev.gpulint.testing.CpuBudget;

/** A cluster listed one node group per node: the rules stay linear in the number of groups. */
class ManyNodeGroupsTest {

    @Test
    void fortyThousandGroupsWithMixedBandwidthUnits() {
        int n = 40_000;
        StringBuilder sb = new StringBuilder("kind: cluster\nname: fleet\nfabric:\n  type: infiniband\n  topology: rail-optimized\nnode_groups:\n");
        for (int i = 0; i < n; i++) {
            sb.append("  - name: n").append(i).append("\n    count: 1\n    gpu: { model: H100-SXM5-80GB, count: 8 }\n")
                    .append("    nvlink: { switch: true, bandwidth: 900 GB/s, direction: bidirectional }\n")
                    .append("    nics: [{ model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true }]\n");
        }
        SourceFile f = SourceFile.of("fleet.yaml", sb.toString());
        List<Finding> out = CpuBudget.ofSeconds(40).run(() -> new Linter().lint(List.of(f)).findings());
        // nvlink is a device bandwidth, the NIC speed a network one: no mix within a class
        assertEquals(0, out.stream().filter(x -> x.ruleId().equals("UNIT002")).count());
    }
}
