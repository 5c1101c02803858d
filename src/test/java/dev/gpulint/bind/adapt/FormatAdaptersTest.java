package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.read.SourceFile;
import dev.gpulint.read.json.JsonReader;
import dev.gpulint.read.yaml.YamlReader;
import dev.gpulint.spec.Format;
import dev.gpulint.tree.Document;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The registry of formats: their order, and which one takes a document. */
class FormatAdaptersTest {

    static String format(String name, String text) {
        SourceFile f = SourceFile.of(name, text);
        List<Document> docs = name.endsWith(".json") ? new JsonReader().read(f).foreign() : new YamlReader().read(f).foreign();
        assertEquals(1, docs.size(), "one foreign document in " + name);
        return FormatAdapters.find(new ForeignDocument(docs.get(0), f, name)).map(FormatAdapter::displayName).orElse("none");
    }

    @Test
    void theOrderIsMonitoringFirstThenJobsMostSpecificFirst() {
        assertEquals(List.of("DCGM counter list", "DCGM ConfigMap", "Prometheus rules", "launch script", "torchtitan", "Kubernetes",
                        "Argo Workflow", "NicConfigurationTemplate", "SriovNetworkNodePolicy", "NicClusterPolicy",
                        "AWS Batch job definition",
                        "Megatron-LM", "NeMo", "NeMo 2 recipe", "SageMaker HyperPod recipe", "Megatron-Bridge", "NeMo-RL", "torchtune", "llm-foundry", "axolotl", "LLaMA-Factory", "nanotron", "Fast-LLM", "Levanter", "SkyPilot", "accelerate", "gpt-neox",
                        "DeepSpeed", "Hugging Face config.json"),
                FormatAdapters.ALL.stream().map(FormatAdapter::displayName).toList());
    }

    @Test
    void eachFormatHasAStableIdApartFromItsDisplayName() {
        assertEquals(List.of("dcgm-counter-list", "dcgm-configmap", "prometheus-rules", "launch-script", "torchtitan", "kubernetes",
                        "argo-workflow", "nic-configuration-template", "sriov-network-node-policy", "nic-cluster-policy", "aws-batch",
                        "megatron-lm", "nemo", "nemo2-recipe", "hyperpod-recipe", "megatron-bridge", "nemo-rl", "torchtune", "llm-foundry", "axolotl", "llama-factory", "nanotron", "fast-llm", "levanter", "skypilot", "accelerate", "gpt-neox", "deepspeed",
                        "hf-config"),
                FormatAdapters.ALL.stream().map(FormatAdapter::id).toList());
        // a format of jobs shows the name of its Format, the vocabulary rules test: the two cannot drift apart
        Set<String> notJobs = Set.of("dcgm-counter-list", "dcgm-configmap", "prometheus-rules", "argo-workflow",
                "nic-configuration-template", "sriov-network-node-policy", "nic-cluster-policy", "hf-config");
        for (FormatAdapter a : FormatAdapters.ALL) {
            boolean named = java.util.Arrays.stream(Format.values()).anyMatch(f -> f != Format.OTHER && f.display().equals(a.displayName()));
            assertEquals(!notJobs.contains(a.id()), named, a.id() + " shows '" + a.displayName() + "'");
        }
    }

    @Test
    void eachFormatIsRecognisedByItsContent() {
        assertEquals("DCGM ConfigMap", format("cm.yaml", """
                apiVersion: v1
                kind: ConfigMap
                data:
                  counters.csv: |
                    DCGM_FI_DEV_GPU_UTIL, gauge, GPU utilization
                """));
        assertEquals("Prometheus rules", format("rules.yaml", """
                apiVersion: monitoring.coreos.com/v1
                kind: PrometheusRule
                spec:
                  groups:
                    - name: g
                      rules:
                        - record: x
                          expr: avg(DCGM_FI_DEV_GPU_UTIL)
                """));
        assertEquals("Kubernetes", format("pt.yaml", "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nspec: {}\n"));
        assertEquals("NicClusterPolicy", format("ncp.yaml", "apiVersion: mellanox.com/v1alpha1\nkind: NicClusterPolicy\nspec: {}\n"));
        assertEquals("none", format("pod.yaml", "apiVersion: v1\nkind: Pod\nspec: {}\n"));
        assertEquals("AWS Batch job definition", format("cf.yaml", """
                Resources:
                  Def:
                    Type: AWS::Batch::JobDefinition
                    Properties:
                      NodeProperties: {NumNodes: 2}
                """));
        assertEquals("Megatron-LM", format("model_config.yaml", "MODEL_ARGS:\n  --num-layers: 2\n"));
        assertEquals("NeMo", format("nemo.yaml", "trainer: {num_nodes: 1}\nmodel: {micro_batch_size: 1}\n"));
        assertEquals("SkyPilot", format("sky.yaml", "resources: {accelerators: H100:8}\nrun: echo\n"));
    }

    @Test
    void deepSpeedKeysAreTakenOnlyInJson() {
        assertEquals("DeepSpeed", format("ds.json", "{\"train_batch_size\": 8}"));
        assertEquals("none", format("ds.yaml", "train_batch_size: 8\n"));
    }

    @Test
    void theFirstFormatThatAcceptsWins() {
        // both NeMo-shaped and Megatron-shaped: Megatron is tried first
        assertEquals("Megatron-LM", format("both.yaml", """
                MODEL_ARGS: {--num-layers: 2}
                trainer: {num_nodes: 1}
                model: {micro_batch_size: 1}
                """));
    }
}
