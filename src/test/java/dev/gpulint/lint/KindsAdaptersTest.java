package dev.gpulint.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.JobPlacement;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The adapters of issue #15 where a rule case cannot show them: a job placed on a node group by
 * configuration (job_clusters), a network operator's fabric given to the clusters made for jobs,
 * and an Argo manifest's values placed in the outer file.
 */
class KindsAdaptersTest {

    private static final SourceFile CLUSTER = SourceFile.of("cluster.yaml", """
            kind: cluster
            name: hgx
            fabric: { type: infiniband }
            node_groups:
              - { name: dgx, count: 4, gpu: { model: H100-SXM5-80GB, count: 8 } }
            """);

    private static List<String> lint(Linter linter, String rule, SourceFile... files) {
        return linter.lint(List.of(files)).findings().stream().filter(f -> f.ruleId().equals(rule)).map(KindsAdaptersTest::show).toList();
    }

    private static String show(Finding f) {
        StringBuilder b = new StringBuilder(at(f.span()) + " " + f.message());
        for (Finding.Related r : f.related()) b.append(" | ").append(at(r.span()));
        return b.toString();
    }

    private static String at(Span s) { return s.file() + ":" + s.startLine() + ":" + s.startColumn(); }

    private static Linter placed() {
        return new Linter().serial().jobPlacement(f -> f.startsWith("train/")
                ? Optional.of(new JobPlacement("hgx", "dgx", Span.at(".gpulint.yaml", 2, 5))) : Optional.empty());
    }

    @Test
    void accelerateNumProcessesIsCheckedAgainstTheNodeGroupsGpus() {
        SourceFile perMachine = SourceFile.of("train/accelerate.yaml", """
                distributed_type: DEEPSPEED
                deepspeed_config:
                  zero_stage: 2
                main_process_ip: 10.0.0.11
                num_machines: 2
                num_processes: 8
                """);
        assertEquals(List.of("train/accelerate.yaml:6:16 num_processes is 8 for 2 machines (4 per machine), but node group 'dgx' "
                + "has 8 GPUs per node, so 2 × 8 = 16: it looks like the count of one machine, but num_processes is the total over "
                + "all machines; write 16 (one process per GPU). | cluster.yaml:5:65"), lint(placed(), "CONSIST011", CLUSTER, perMachine));
        SourceFile total = SourceFile.of("train/accelerate.yaml", """
                distributed_type: MULTI_GPU
                main_process_ip: 10.0.0.11
                num_machines: 2
                num_processes: 16
                """);
        assertEquals(List.of(), lint(placed(), "CONSIST011", CLUSTER, total));
    }

    private static final String PYTORCHJOB = """
            apiVersion: kubeflow.org/v1
            kind: PyTorchJob
            metadata:
              name: llama
            spec:
              pytorchReplicaSpecs:
                Worker:
                  replicas: 2
                  template:
                    spec:
                      nodeSelector:
                        nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3
                      containers:
                        - name: pytorch
                          env:
                            - { name: NCCL_IB_TC, value: "26" }
                          resources:
                            limits: { nvidia.com/gpu: 8, rdma/roce_a: 1 }
            """;

    private static SourceFile nic(String file, String name) {
        return SourceFile.of(file, """
                apiVersion: configuration.net.nvidia.com/v1alpha1
                kind: NicConfigurationTemplate
                metadata:
                  name: %s
                spec:
                  nicSelector: { nicType: "1021" }
                  template:
                    numVfs: 0
                    linkType: Ethernet
                    roceOptimized: { enabled: true }
                """.formatted(name));
    }

    @Test
    void theRunsOneNicConfigurationGivesItsFabricToTheClustersMadeForJobs() {
        SourceFile job = SourceFile.of("k8s/job.yaml", PYTORCHJOB);
        assertEquals(List.of("k8s/job.yaml:16:46 NCCL_IB_TC=26 is the whole traffic-class byte: traffic class 26 = DSCP 6, priority 0 "
                + "under the usual trust-DSCP map (DSCP = TC >> 2, priority = DSCP >> 3), but PFC protects fabric.roce.pfc.priority 3 "
                + "of cluster 'H100-SXM5-80GB nodes of k8s/job.yaml', so RoCE traffic runs lossy; for DSCP 26 write 104 (or 106 with "
                + "ECT(0) set). | nic.yaml:10:31"), lint(new Linter().serial(), "NCCL006", job, nic("nic.yaml", "cx7")));
        // two NIC configurations: which one the job's nodes have is not known, so neither is given
        assertEquals(List.of(), lint(new Linter().serial(), "NCCL006", job, nic("a.yaml", "a"), nic("b.yaml", "b")));
    }

    @Test
    void anArgoManifestsValuesKeepTheirPlaceInTheOuterFile() {
        SourceFile wf = SourceFile.of("wf.yaml", """
                apiVersion: argoproj.io/v1alpha1
                kind: Workflow
                metadata: { generateName: t- }
                spec:
                  templates:
                    - name: train
                      resource:
                        action: create
                        manifest: |
                          apiVersion: kubeflow.org/v1
                          kind: PyTorchJob
                          metadata: { name: p }
                          spec:
                            nprocPerNode: "4"
                            pytorchReplicaSpecs:
                              Worker:
                                replicas: 2
                                template:
                                  spec:
                                    containers:
                                      - resources: { limits: { nvidia.com/gpu: 8 } }
                """);
        assertEquals(List.of("wf.yaml:14:27 nprocPerNode gives 4 as the number of ranks (GPUs) per node, but the pods' GPU limit "
                + "gives 8: fewer ranks than GPUs, so GPUs the job holds sit idle (or the job waits for ranks that never come); "
                + "make the two agree (one rank per GPU). | wf.yaml:21:64"), lint(new Linter().serial(), "CONSIST001", wf));
    }
}
