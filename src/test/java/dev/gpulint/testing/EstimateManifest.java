package dev.gpulint.testing;

import dev.gpulint.derive.Fixture;
import dev.gpulint.derive.estimate.JobEstimate;
import java.util.ArrayList;
import java.util.List;

/**
 * The estimate tests' input: a native manifest of one cluster and one training job on it, written from the fields the
 * tests vary. What a test does not set keeps these stated defaults:
 * <ul>
 *   <li>cluster {@code c} (no fabric unless {@link #fabric} states one), node group {@code g}: {@code nodes} nodes (1) of
 *       {@code gpusPerNode} GPUs (8) of the model given ({@link #h100()}: H100-SXM5-80GB) on an NVLink switch
 *       ({@code nvlink: { switch: true }}), no NICs unless {@link #nics} names them ({@link #pod}: a DGX H100 pod);</li>
 *   <li>job {@code j} on all of them: {@code nodes: N}, {@code gpus_per_node} the node's GPUs;</li>
 *   <li>{@code parallelism}, {@code batch}, {@code optimizer}, {@code recompute}: not written (the binder's and the
 *       estimate's own defaults) until set.</li>
 * </ul>
 * The model's fields are required: a test states the shape it prices ({@code model(...)}, a YAML flow mapping's
 * entries such as {@code "layers: 32, hidden_size: 4096, attention_heads: 32"}).
 *
 * <pre>{@code
 * JobEstimate e = EstimateManifest.h100().model(LLAMA3_8B + ", seq_length: 8192").parallelism("tp: 8, pp: 1")
 *         .batch(1, 4).optimizer("zero_stage: 3").recompute("none").estimate();
 * }</pre>
 */
public final class EstimateManifest {

    /** Llama 3 8B's shape in bf16 (its config.json: untied embeddings, SwiGLU, 8 KV heads), without a sequence length. */
    public static final String LLAMA3_8B = "dtype: bf16, layers: 32, hidden_size: 4096, attention_heads: 32, kv_heads: 8, ffn_hidden_size: 14336,"
            + " vocab_size: 128256, gated_mlp: true, tied_embeddings: false";

    /** Eight ConnectX-7 NICs of 400 Gb/s on InfiniBand with GPUDirect RDMA per node (a DGX H100's). */
    public static final String CX7_IB = "{ model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true }";

    private final String gpu;
    private String cluster = "c";
    private String fabric;
    private String group = "g";
    private String name = "j";
    private int nodes = 1;
    private int gpusPerNode = 8;
    private int jobGpusPerNode = -1;
    private String nvlink = "switch: true";
    private String nics;
    private String model;
    private String parallelism;
    private String batch;
    private String optimizer;
    private String recompute;
    private final List<String> lines = new ArrayList<>();

    private EstimateManifest(String gpu) {
        this.gpu = gpu;
    }

    /** A job on nodes of 8 {@code gpu} (a catalog model name, e.g. A100-SXM4-80GB). */
    public static EstimateManifest on(String gpu) {
        return new EstimateManifest(gpu);
    }

    /** A job on nodes of 8 H100-SXM5-80GB. */
    public static EstimateManifest h100() {
        return on("H100-SXM5-80GB");
    }

    /**
     * Cluster {@code pod}, node group {@code dgx}: {@code nodes} DGX H100 (8 H100-SXM5-80GB on an NVLink switch, its 900 GB/s
     * bidirectional stated; eight ConnectX-7 NICs, {@link #CX7_IB}) on a rail-optimized InfiniBand fabric.
     */
    public static EstimateManifest pod(int nodes) {
        return h100().cluster("pod").fabric("type: infiniband, topology: rail-optimized").group("dgx").nodes(nodes)
                .nvlink("switch: true, bandwidth: 900 GB/s, direction: bidirectional").nics(CX7_IB);
    }

    /** The cluster's name. */
    public EstimateManifest cluster(String name) {
        cluster = name;
        return this;
    }

    /** The cluster's {@code fabric: { ENTRIES }} (e.g. {@code "type: infiniband, topology: rail-optimized"}); null: none written. */
    public EstimateManifest fabric(String entries) {
        fabric = entries;
        return this;
    }

    /** The node group's node count, all of them the job's. */
    public EstimateManifest nodes(int n) {
        nodes = n;
        return this;
    }

    /** The node's GPUs, the job's {@code gpus_per_node} too. */
    public EstimateManifest gpusPerNode(int n) {
        gpusPerNode = n;
        return this;
    }

    /** The job's {@code gpus_per_node} when it uses fewer than the node has. */
    public EstimateManifest jobGpusPerNode(int n) {
        jobGpusPerNode = n;
        return this;
    }

    /** The node group's {@code nvlink: { ENTRIES }} (e.g. {@code "switch: true, domain_size: 72"}); null: none written. */
    public EstimateManifest nvlink(String entries) {
        nvlink = entries;
        return this;
    }

    /** The node group's name. */
    public EstimateManifest group(String name) {
        group = name;
        return this;
    }

    /** The job's name. */
    public EstimateManifest name(String job) {
        name = job;
        return this;
    }

    /** The node group's NICs, a YAML flow sequence's entries (e.g. {@link #CX7_IB}). */
    public EstimateManifest nics(String entries) {
        nics = entries;
        return this;
    }

    /** {@code model: { ENTRIES }}. */
    public EstimateManifest model(String entries) {
        model = entries;
        return this;
    }

    /** {@code parallelism: { ENTRIES }}, e.g. {@code "tp: 2, pp: 8, ep: 8, etp: 1"}. */
    public EstimateManifest parallelism(String entries) {
        parallelism = entries;
        return this;
    }

    /** {@code batch: { micro_batch_size: MICRO, global_batch_size: GLOBAL }}. */
    public EstimateManifest batch(int micro, int global) {
        batch = "micro_batch_size: " + micro + ", global_batch_size: " + global;
        return this;
    }

    /** {@code optimizer: { ENTRIES }}, e.g. {@code "zero_stage: 1, distributed: true"}. */
    public EstimateManifest optimizer(String entries) {
        optimizer = entries;
        return this;
    }

    /** {@code recompute: MODE} ({@code none}, {@code selective}, {@code full}, {@code op}...). */
    public EstimateManifest recompute(String mode) {
        recompute = mode;
        return this;
    }

    /** A line of the job's own, written after the others as it is (e.g. {@code "kernels: eager"}). */
    public EstimateManifest line(String line) {
        lines.add(line);
        return this;
    }

    /** The cluster document's text alone (a test that writes its own job after it, from {@code ---}). */
    public String clusterYaml() {
        StringBuilder b = new StringBuilder("kind: cluster\nname: ").append(cluster).append('\n');
        if (fabric != null) b.append("fabric: { ").append(fabric).append(" }\n");
        b.append("node_groups:\n  - name: ").append(group).append("\n    count: ").append(nodes).append('\n');
        b.append("    gpu: { model: ").append(gpu).append(", count: ").append(gpusPerNode).append(" }\n");
        if (nvlink != null) b.append("    nvlink: { ").append(nvlink).append(" }\n");
        if (nics != null) b.append("    nics: [ ").append(nics).append(" ]\n");
        return b.toString();
    }

    /** The manifest's text. */
    public String yaml() {
        if (model == null) throw new IllegalStateException("an estimate manifest states its model: model(...)");
        StringBuilder b = new StringBuilder(clusterYaml());
        b.append("---\nkind: training_job\nname: ").append(name).append("\ncluster: ").append(cluster).append("\nnode_group: ").append(group);
        b.append("\nnodes: ").append(nodes).append("\ngpus_per_node: ").append(jobGpusPerNode > 0 ? jobGpusPerNode : gpusPerNode).append('\n');
        b.append("model: { ").append(model).append(" }\n");
        if (parallelism != null) b.append("parallelism: { ").append(parallelism).append(" }\n");
        if (batch != null) b.append("batch: { ").append(batch).append(" }\n");
        if (optimizer != null) b.append("optimizer: { ").append(optimizer).append(" }\n");
        if (recompute != null) b.append("recompute: ").append(recompute).append('\n');
        for (String l : lines) b.append(l).append('\n');
        return b.toString();
    }

    /** The manifest read, bound (without findings) and resolved with the built-in catalog. */
    public Fixture fixture() {
        return Fixture.of(yaml());
    }

    /** The job's estimate. */
    public JobEstimate estimate() {
        Fixture f = fixture();
        return JobEstimate.of(f.jobs().get(0), f.catalog());
    }
}
