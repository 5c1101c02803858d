package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.core.Span;
import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A NicClusterPolicy's RDMA device-plugin resources bind as NIC policies, located inside the JSON of their config. */
class NicClusterPolicyAdapterTest {

    private static List<Specs.NicPolicy> bind(String text) {
        SourceFile f = SourceFile.of("ncp.yaml", text);
        return Adapters.bind(List.of(new Adapters.Input(f, Readers.read(f).foreign()))).nicPolicies();
    }

    @Test
    void eachRdmaResourceWithItsLinkType() {
        List<Specs.NicPolicy> p = bind("""
                apiVersion: mellanox.com/v1alpha1
                kind: NicClusterPolicy
                metadata:
                  name: nic-cluster-policy
                spec:
                  rdmaSharedDevicePlugin:
                    config: |
                      {
                        "configList": [
                          {"resourceName": "rdma_ib", "rdmaHcaMax": 63, "selectors": {"linkTypes": ["infiniband"]}},
                          {"resourceName": "rdma_any", "rdmaHcaMax": 63, "selectors": {"vendors": ["15b3"]}}
                        ]
                      }
                  sriovDevicePlugin:
                    config: '{"resourceList": [{"resourcePrefix": "nvidia.com", "resourceName": "hostdev", "selectors": {"isRdma": true}},
                      {"resourceName": "plain_vf", "selectors": {"linkTypes": ["ether"]}}]}'
                """);
        assertEquals(List.of("rdma/rdma_ib", "rdma/rdma_any", "nvidia.com/hostdev"), p.stream().map(Specs.NicPolicy::resource).toList(),
                "the SR-IOV resource without isRdma is not an RDMA one");
        assertEquals("nic-cluster-policy", p.get(0).name().value());
        assertEquals("infiniband", p.get(0).linkType().value());
        assertEquals(new Span("ncp.yaml", 10, 85, 10, 97), p.get(0).linkType().span(), "inside the JSON, quotes included");
        assertEquals(new Span("ncp.yaml", 10, 28, 10, 37), p.get(0).span(), "the resource's name");
        assertNull(p.get(1).linkType());
        assertEquals(15, p.get(2).span().startLine(), "a quoted config is placed too");
    }

    @Test
    void bothLinkKindsOrAConfigThatIsNotJsonLeaveNothingToJudge() {
        List<Specs.NicPolicy> both = bind("""
                apiVersion: mellanox.com/v1alpha1
                kind: NicClusterPolicy
                metadata: { name: p }
                spec:
                  rdmaSharedDevicePlugin:
                    config: '{"configList": [{"resourceName": "r", "selectors": {"linkTypes": ["ether", "infiniband"]}}]}'
                """);
        assertNull(both.get(0).linkType());
        assertEquals(0, bind("""
                apiVersion: mellanox.com/v1alpha1
                kind: NicClusterPolicy
                metadata: { name: p }
                spec:
                  rdmaSharedDevicePlugin:
                    config: '{"configList": [ {"resourceName": '
                """).size(), "a broken config is unknown, not an error");
    }
}
