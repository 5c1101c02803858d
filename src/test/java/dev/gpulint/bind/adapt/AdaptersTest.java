package dev.gpulint.bind.adapt;

import dev.gpulint.spec.Model;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.spec.Specs;
import dev.gpulint.read.ReadResult;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Each format binds to the same job facts, with the span of each value in the original file. */
class AdaptersTest {

    private static Model bind(String name, String text) {
        SourceFile f = SourceFile.of(name, text);
        ReadResult r = new YamlReader().read(f);
        return Adapters.bind(List.of(new Adapters.Input(f, r.foreign())));
    }

    private static Specs.Job job(String name, String text) {
        Model b = bind(name, text);
        assertEquals(1, b.jobs().size(), "one job from " + name);
        return b.jobs().get(0);
    }

    @Test
    void nemoFollowsInterpolationsAndTheLaunchersTrainingPrefix() {
        Specs.Job j = job("gpt.yaml", """
                trainer:
                  num_nodes: ${training.model.nodes}
                  devices: [0, 1, 2, 3]
                model:
                  nodes: 4
                  micro_batch_size: 2
                  tensor_model_parallel_size: ${.tp}
                  tp: 2
                  pipeline_model_parallel_size: ${multiply:2, 2}
                  global_batch_size: ???
                """);
        assertEquals("NeMo", j.origin().format());
        assertEquals(4L, j.nodes().value());
        assertEquals(5, j.nodes().span().startLine(), "the number's own place, not the reference's");
        assertEquals(4L, j.gpusPerNode().value(), "a device list counts its devices");
        assertEquals("trainer.devices", j.origin().gpusPerNodeWhere(), "messages name the format's own key");
        assertEquals(2L, j.parallelism().tp().value());
        assertNull(j.parallelism().pp(), "a resolver is unknown");
        assertNull(j.batch().globalBatchSize(), "??? is unknown");
    }

    @Test
    void kubernetesRolesPodsAndPlaceholders() {
        Specs.Job v = job("volcano.yaml", """
                apiVersion: batch.volcano.sh/v1alpha1
                kind: Job
                metadata: { name: mindspore }
                spec:
                  minAvailable: 3
                  tasks:
                    - name: mpimaster
                      replicas: 1
                      template: { spec: { containers: [ { command: [mpiexec, -np, "2", ./run.sh] } ] } }
                    - name: mpiworker
                      replicas: 2
                      template: { spec: { containers: [ { resources: { limits: { nvidia.com/gpu: "1" } } } ] } }
                """);
        assertEquals(2L, v.nodes().value(), "the pods with GPUs");
        assertEquals(1L, v.gpusPerNode().value(), "a GPU count written as a string");
        assertTrue(v.origin().stated().stream().anyMatch(s -> s.quantity().equals("world") && s.value().equals("2")
                && s.kind() == Specs.StatedKind.LAUNCHER));
        Specs.Job t = job("template.yaml", """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: { name: fsdp }
                spec:
                  pytorchReplicaSpecs:
                    Worker:
                      replicas: $NUM_NODES
                      template: { spec: { containers: [ { resources: { limits: { nvidia.com/gpu: 8 } } } ] } }
                """);
        assertNull(t.nodes(), "an envsubst placeholder leaves the node count unknown, never 1");
    }

    @Test
    void skypilotAcceleratorsInEveryShape() {
        assertEquals("A100-SXM4-80GB", job("a.yaml", "resources: { accelerators: { A100-80GB: 8 } }\nnum_nodes: 2\nrun: echo\n")
                .origin().gpuModel().value());
        Specs.Job flow = job("b.yaml", "resources:\n  accelerators: { A100-80GB:8 }\nrun: echo\n");
        assertEquals(8L, flow.gpusPerNode().value(), "{ A100-80GB:8 } is one key in YAML's flow style");
        Specs.Job it = job("c.yaml", "resources: { instance_type: a3-highgpu-8g }\nrun: echo\n");
        assertEquals("H100-SXM5-80GB", it.origin().gpuModel().value());
        assertEquals(1L, it.nodes().value(), "num_nodes defaults to 1");
        Specs.Job anyOf = job("d.yaml", "resources:\n  any_of:\n    - { accelerators: H100:8, cloud: aws }\n"
                + "    - { accelerators: H100:8, cloud: gcp }\nrun: echo\n");
        assertEquals(8L, anyOf.gpusPerNode().value(), "alternatives that all name H100:8 are H100:8");
        Specs.Job mixed = job("e.yaml", "resources:\n  any_of:\n    - { accelerators: H100:8 }\n    - { accelerators: A100:8 }\nrun: echo\n");
        assertNull(mixed.gpusPerNode(), "alternatives that differ leave the GPUs unknown");
    }

    @Test
    void dcgmExpressionsKnowTheFunctionAroundEachMetric() {
        Model b = bind("rules.yaml", """
                groups:
                  - name: g
                    rules:
                      - record: a
                        expr: sum by (gpu) (rate(DCGM_FI_PROF_PCIE_TX_BYTES{job="dcgm"}[5m])) / avg(DCGM_FI_DEV_GPU_UTIL)
                """);
        assertEquals(2, b.queries().size());
        assertEquals("rate", b.queries().get(0).function());
        assertEquals("avg", b.queries().get(1).function());
        assertEquals(5, b.queries().get(0).metric().span().startLine());
        assertEquals(34, b.queries().get(0).metric().span().startColumn());
    }

    @Test
    void otherYamlIsNoJob() {
        assertTrue(bind("deploy.yaml", "apiVersion: apps/v1\nkind: Deployment\nspec: { replicas: 3 }\n").jobs().isEmpty());
        assertTrue(bind("values.yaml", "image: { tag: v1 }\nresources: { limits: { cpu: 1 } }\n").jobs().isEmpty());
    }

    @Test
    void linkUsesConfigurationThenNodeLabelsThenTheCatalog() {
        Catalog cat = Catalog.builtIn();
        Specs.Job sky = job("sky.yaml", "resources: { accelerators: H100:8 }\nnum_nodes: 2\nrun: echo\n");
        Specs.Job k8s = job("k.yaml", """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: { name: j }
                spec:
                  pytorchReplicaSpecs:
                    Worker:
                      replicas: 2
                      template:
                        spec:
                          nodeSelector: { nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3 }
                          containers: [ { resources: { limits: { nvidia.com/gpu: 8 } } } ]
                """);
        SourceFile cf = SourceFile.of("c.yaml", """
                kind: cluster
                name: pod
                node_groups: [ { name: dgx, count: 2, gpu: { model: H100-SXM5-80GB, count: 8 } } ]
                """);
        List<Specs.Cluster> clusters = new dev.gpulint.bind.Binder().bind(new YamlReader().read(cf).documents()).clusters();
        Model linked = Adapters.link(List.of(k8s), clusters, cat, f -> Optional.empty());
        assertEquals("pod", linked.jobs().get(0).cluster().value());
        assertEquals("dgx", linked.jobs().get(0).nodeGroup().value());
        assertTrue(linked.clusters().isEmpty());
        linked = Adapters.link(List.of(sky), List.of(), cat, f -> Optional.empty());
        assertEquals(1, linked.clusters().size(), "no cluster has the model: one of catalog nodes is made for the job");
        assertEquals("H100-SXM5-80GB nodes of sky.yaml", linked.jobs().get(0).cluster().value());
        assertEquals(linked.jobs().get(0).cluster().value(), linked.clusters().get(0).name().value());
        linked = Adapters.link(List.of(sky), clusters, cat,
                f -> Optional.of(new dev.gpulint.spec.JobPlacement("elsewhere", null, dev.gpulint.core.Span.at(".gpulint.yaml", 2, 3))));
        assertEquals("elsewhere", linked.jobs().get(0).cluster().value(), "configuration wins");
    }
}
