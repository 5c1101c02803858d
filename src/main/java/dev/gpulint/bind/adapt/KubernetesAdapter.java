package dev.gpulint.bind.adapt;

import dev.gpulint.bind.adapt.shell.Launchers;
import dev.gpulint.bind.adapt.shell.Shell;
import static dev.gpulint.bind.adapt.TreeValues.integer;
import static dev.gpulint.bind.adapt.TreeValues.list;
import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.maps;
import static dev.gpulint.bind.adapt.TreeValues.scalar;
import static dev.gpulint.bind.adapt.TreeValues.text;

import dev.gpulint.bind.adapt.shell.Shell.Word;
import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs.StatedKind;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Kubernetes training jobs: Kubeflow PyTorchJob, MPIJob (v1alpha2, v1, v2beta1), PaddleJob,
 * TFJob, MXJob, TrainJob and (Cluster)TrainingRuntime (trainer v2), Volcano Job, SageMaker
 * HyperPodPyTorchJob (a list of replica specs), KubeRay RayCluster / RayJob (the head group
 * and each worker group: replicas, else minReplicas, × the pods' GPUs), JobSet (each replicated Job's replicas ×
 * its parallelism), LeaderWorkerSet (one group: a leader and size − 1 workers; replicas are independent copies),
 * and Kueue's Workload (each pod set's count) and batch/v1 Jobs submitted to a Kueue queue (the
 * {@code kueue.x-k8s.io/queue-name} label; parallelism pods). From each role
 * (Master, Worker, Launcher, a Volcano task) it reads the replicas and the pods' containers:
 * {@code nvidia.com/gpu} limits (int or string), RDMA resources, {@code env}, and command/args
 * through the shell-lite scan ({@code mpirun -np/-N/-x}, {@code torchrun --nproc_per_node/--nnodes},
 * Megatron flags, LAMMPS Kokkos {@code -k on g N}). Node selectors and affinities that name the
 * GPU product ({@code nvidia.com/gpu.product}) become the job's GPU model.
 */
final class KubernetesAdapter implements FormatAdapter {
    static final Set<String> KINDS = Set.of("PyTorchJob", "MPIJob", "PaddleJob", "TFJob", "XGBoostJob", "JAXJob", "MXJob",
            "TrainJob", "TrainingRuntime", "ClusterTrainingRuntime");
    /** KubeRay: a cluster of a head group and worker groups; a job that brings its own cluster. */
    static final Set<String> RAY_KINDS = Set.of("RayCluster", "RayJob");
    static final Set<String> GPU_LABELS = Set.of("nvidia.com/gpu.product", "gpu.nvidia.com/model",
            "cloud.google.com/gke-accelerator", "nvidia.com/gpu.machine");

    KubernetesAdapter() {}


    @Override public String id() { return "kubernetes"; }

    @Override public String displayName() { return Format.KUBERNETES.display(); }

    @Override public boolean accepts(ForeignDocument doc) { return accepts(doc.root()); }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        sink.draft(bind(doc.root(), doc.file(), doc.name(), doc.text(), sink::finding));
    }

    static boolean accepts(MappingNode root) {
        String api = text(root, "apiVersion");
        String kind = text(root, "kind");
        if (api == null || kind == null) return false;
        if (KINDS.contains(kind) && (api.startsWith("kubeflow.org/") || api.startsWith("trainer.kubeflow.org/"))) return true;
        if (RAY_KINDS.contains(kind) && api.startsWith("ray.io/")) return true;
        if (kind.equals("HyperPodPyTorchJob") && api.startsWith("sagemaker.amazonaws.com/")) return true;
        if (kind.equals("JobSet") && api.startsWith("jobset.x-k8s.io/")) return true;
        if (kind.equals("LeaderWorkerSet") && api.startsWith("leaderworkerset.x-k8s.io/")) return true;
        if (kind.equals("Workload") && api.startsWith("kueue.x-k8s.io/")) return true;
        if (kind.equals("Job") && api.startsWith("batch/")) return kueueQueue(root) != null;
        return kind.equals("Job") && api.startsWith("batch.volcano.sh/");
    }

    /** The Kueue queue a batch/v1 Job is submitted to (its {@code kueue.x-k8s.io/queue-name} label), or null. */
    static String kueueQueue(MappingNode root) {
        ScalarNode q = scalar(map(root, "metadata", "labels"), "kueue.x-k8s.io/queue-name");
        return q == null || q.isNull() ? null : q.text();
    }

    /** A role: its replicas and the pod spec of its template. */
    private record Role(String name, Located<Long> replicas, boolean replicasWritten, MappingNode pod, MappingNode podMeta) {
        Role(String name, Located<Long> replicas, MappingNode pod, MappingNode podMeta, MappingNode owner, String key) {
            this(name, replicas, owner != null && owner.get(key).isPresent(), pod, podMeta);
        }
    }

    /** A container's env entry with a value. */
    /** A container's variable; {@code string}: the value is a YAML string (quoted, or plain that YAML reads as one). */
    private record EnvVar(String name, String value, Span span, boolean string) {}

    /** What the containers of one pod get and say. */
    private static final class Pod {
        long gpus = -1;
        Span gpuSpan;
        /** A GPU count beyond the schema's gpus_per_node (integer() dropped 16+ digits silently), and the key it was under. */
        Located<Long> gpusOver;
        String gpusOverKey;
        final List<Located<String>> rdma = new ArrayList<>();
        boolean access;
        /** Its containers in order: each has its own env and command (Kubernetes: env is per container, not per pod). */
        final List<Container> containers = new ArrayList<>();
    }

    /** One container of a pod: the GPUs it asks for, its env, what its command launches and exports. */
    private static final class Container {
        long gpus;
        final Launchers.Launch launch = new Launchers.Launch();
        final List<EnvVar> env = new ArrayList<>();
        final List<Shell.Assignment> exports = new ArrayList<>();
        /** The words of its command: and args: lists that are no script (the program's argv as Kubernetes runs it). */
        final List<Word> words = new ArrayList<>();
    }

    private static final dev.gpulint.bind.Schema.Field NODES = dev.gpulint.bind.Schema.field(dev.gpulint.bind.Schema.JOB, "nodes");
    private static final dev.gpulint.bind.Schema.Field GPUS = dev.gpulint.bind.Schema.field(dev.gpulint.bind.Schema.JOB, "gpus_per_node");

    /** The object's job; {@code findings} takes what its containers' command scripts' srun lines say (SYN011, SrunExportCuts). */
    static JobDraft bind(MappingNode root, String file, String jobName, String source,
                         java.util.function.Consumer<dev.gpulint.core.Finding> findings) {
        String kind = text(root, "kind");
        String format = "Kubernetes " + kind + (!kind.equals("Job") ? "" : kueueQueue(root) != null && !String.valueOf(text(root, "apiVersion"))
                .startsWith("batch.volcano.sh/") ? " (Kueue)" : " (Volcano)");
        JobDraft j = new JobDraft(format, file, root.span());
        j.podsVisible = true;
        MappingNode meta = map(root, "metadata");
        ScalarNode nameNode = scalar(meta, "name");
        j.name = new Located<>(jobName, nameNode != null ? nameNode.span() : root.entries().get(0).key().span());
        MappingNode spec = map(root, "spec");
        if (spec == null) return j;
        List<Role> roles = roles(kind, spec);
        long world = 0, nodes = 0;
        boolean worldKnown = true;
        long uniform = -2;
        Span gpuSpan = null;
        StringBuilder worldText = new StringBuilder();
        StringBuilder podText = new StringBuilder();   // the pods that hold GPUs are the nodes: a Master is one too
        List<Pod> pods = new ArrayList<>();
        for (Role r : roles) {
            Pod p = pod(r, source);
            pods.add(p);
            // a GPU count beyond the schema's gpus_per_node: bound under its key for DraftBounds' SYN002 at the value, as
            // replicas are below, and the world is unknown
            if (p.gpusOver != null) {
                if (j.gpusPerNode == null) j.gpusPerNode = j.key(p.gpusOverKey, p.gpusOver);
                worldKnown = false;
                continue;
            }
            if (p.gpus <= 0) continue;
            // a count beyond the schema's nodes (16+ digits, once dropped as unknown without a word): bound as the job's node
            // count under its key, so that DraftBounds reports SYN002 at the value, and the world is unknown
            if (r.replicas != null && r.replicas.value() > NODES.max()) {
                if (j.nodes == null) j.nodes = j.key("replicas", r.replicas);
                worldKnown = false;
                continue;
            }
            long reps = r.replicas == null ? (kind.equals("TrainJob") ? -1 : 1) : r.replicas.value();
            if (r.replicas == null && r.replicasWritten) reps = -1;      // a placeholder ($NUM_NODES): unknown
            if (reps < 0) { worldKnown = false; continue; }
            world += reps * p.gpus;
            nodes += reps;
            if (worldText.length() > 0) worldText.append(" + ");
            worldText.append(reps).append(' ').append(r.name).append(reps == 1 ? " pod" : " pods").append(" × ")
                    .append(p.gpus).append(" nvidia.com/gpu");
            podText.append(podText.length() > 0 ? " + " : "").append(reps).append(' ').append(r.name).append(reps == 1 ? " pod" : " pods");
            uniform = uniform == -2 ? p.gpus : uniform == p.gpus ? uniform : -1;
            if (gpuSpan == null) gpuSpan = p.gpuSpan;
            gpuModel(j, r.pod);
        }
        if (worldKnown && world > 0) {
            j.nodes = new Located<>(nodes, gpuSpan);
            if (uniform > 0) {
                j.gpusPerNode = new Located<>(uniform, gpuSpan);
                j.state("per_node", uniform, "the pods' GPU limit", StatedKind.RESOURCE, gpuSpan);
            }
            j.gpusPerNodeWhere = "the pods' nvidia.com/gpu limit";
            j.state("world", world, worldText.toString(), StatedKind.RESOURCE, gpuSpan);
            j.state("nodes", nodes, podText.toString(), StatedKind.RESOURCE, gpuSpan);
        }
        // what the job object itself says about processes
        Located<Long> slots = integer(spec, "slotsPerWorker");
        j.state("per_node", slots, "slotsPerWorker", StatedKind.LAUNCHER);
        Located<Long> nproc = integer(spec, "nprocPerNode");
        j.state("per_node", nproc, "nprocPerNode", StatedKind.LAUNCHER);
        MappingNode trainer = map(spec, "trainer");
        if (trainer != null) j.state("per_node", integer(trainer, "numProcPerNode"), "trainer.numProcPerNode", StatedKind.LAUNCHER);
        MappingNode ml = map(spec, "mlPolicy");
        if (ml != null) {
            j.state("per_node", integer(ml, "torch", "numProcPerNode"), "mlPolicy.torch.numProcPerNode", StatedKind.LAUNCHER);
            j.state("per_node", integer(ml, "mpi", "numProcPerNode"), "mlPolicy.mpi.numProcPerNode", StatedKind.LAUNCHER);
        }
        java.util.Set<String> decided = new java.util.HashSet<>();     // the variables an earlier pod's container bound
        List<Launchers.EnvSet> launcherSets = new ArrayList<>();       // mpirun -x of any container: over every pod's env, after them
        for (Pod pod : pods) {
            j.rdma.addAll(pod.rdma);
            // the containers that run the job: those with GPUs, and launchers (MPIJob); not initializers, nor a sidecar of the
            // pod (a log shipper's env is its own: each container gets only its env, and its command starts with it)
            for (Container p : pod.containers) {
                // srun in a container's command script cuts its --export list as in a batch script's (every container's)
                for (Shell.Script script : p.launch.scripts) SrunExportCuts.of(script, null, format, jobName).forEach(findings);
                SrunExportCuts.of(p.words, format, jobName).forEach(findings);    // and srun as the list's own program
                if (p.gpus <= 0 && !p.launch.any()) continue;
                if (pod.access) j.rdmaByAccess = true;
                for (EnvVar e : p.env) {
                    if (e.string()) { j.env(e.name(), e.value(), e.span(), "container env"); continue; }
                    // EnvVar.value is a string: the API server refuses the object ("json: cannot unmarshal number into Go struct
                    // field EnvVar.spec.template.spec.containers.env.value of type string", kubernetes/kubernetes#12889,
                    // kubeshop/helm-charts#514), so no container gets the variable
                    DraftValues.refuse(j, e.span(), "env " + e.name() + " value", e.value(), "a string (" + YamlScalars.kind(e.value())
                            + " here, which Kubernetes refuses with the whole object: \"cannot unmarshal " + YamlScalars.kind(e.value())
                            + " into Go struct field EnvVar...env.value of type string\"); quote it: value: \"" + e.value() + "\"",
                            "no rule reads " + e.name());
                }
                j.exports(p.exports, "export in the command");
                LaunchStatements.apply(j, p.launch);
                for (Shell.Script script : p.launch.scripts) if (LaunchEnvironment.stateLaunchExport(j, script)) break;  // as bind's
                // the command's script starts with the container's env and may change it before the launch (the NCCL rules' and
                // PAR018's variables) (a value Kubernetes does not read as a string, value: 0, is refused with the object: unknown
                // to PAR018; a $(VAR) reference is expanded by Kubernetes from other variables: unknown too, as any value with a $)
                Map<String, Word> base = new java.util.LinkedHashMap<>();
                for (EnvVar e : p.env) {
                    base.putIfAbsent(e.name(), new Word(e.value(), e.string() && !e.value().contains("$"), e.span()));
                }
                // a name an earlier pod bound stays its (the first statement binds, as j.env does), as one the launcher sets
                java.util.Set<String> keep = new java.util.HashSet<>(decided);
                for (Launchers.EnvSet e : p.launch.mpiSets()) keep.add(e.name());
                for (Shell.Script script : p.launch.scripts) if (LaunchEnvironment.bind(j, script, keep, null, base)) break;
                launcherSets.addAll(p.launch.env);
                decided.addAll(base.keySet());
                for (Shell.Assignment a : p.exports) decided.add(a.name());
                AttentionBackends.launchEnvironment(j, p.launch.scripts, p.launch.mpiSets(), base);
                AttentionBackends.startEnvironment(j, base);
            }
        }
        LaunchEnvironment.launcherSets(j, launcherSets, new java.util.HashSet<>());
        MappingNode annotations = map(meta, "annotations");
        if (annotations != null && annotations.get("k8s.v1.cni.cncf.io/networks").isPresent()) j.rdmaByAccess = true;
        return j;
    }

    private static boolean limitsSeen(MappingNode container) {
        return scalar(container, "resources", "limits", "nvidia.com/gpu") != null;
    }

    private static List<Role> roles(String kind, MappingNode spec) {
        List<Role> out = new ArrayList<>();
        for (MappingNode.Entry e : spec.entries()) {
            if (e.key().text().endsWith("ReplicaSpecs") && e.value() instanceof MappingNode rs) {
                for (MappingNode.Entry r : rs.entries()) {
                    if (!(r.value() instanceof MappingNode m)) continue;
                    out.add(new Role(r.key().text(), TreeValues.whole(scalar(m, "replicas")), map(m, "template", "spec"), map(m, "template", "metadata"), m, "replicas"));
                }
            }
        }
        for (MappingNode t : maps(spec, "tasks")) {
            String n = text(t, "name");
            out.add(new Role(n == null ? "task" : n, TreeValues.whole(scalar(t, "replicas")), map(t, "template", "spec"), map(t, "template", "metadata"), t, "replicas"));
        }
        for (MappingNode rs : maps(spec, "replicaSpecs")) {      // SageMaker HyperPod: a list of named replica specs
            String n = text(rs, "name");
            out.add(new Role(n == null ? "pod" : n, TreeValues.whole(scalar(rs, "replicas")), map(rs, "template", "spec"), map(rs, "template", "metadata"), rs, "replicas"));
        }
        MappingNode ray = map(spec, "rayClusterSpec") != null ? map(spec, "rayClusterSpec") : spec;
        MappingNode head = map(ray, "headGroupSpec");
        if (head != null) out.add(new Role("head", new Located<>(1L, head.span()), true, map(head, "template", "spec"), map(head, "template", "metadata")));
        for (MappingNode wg : maps(ray, "workerGroupSpecs")) {
            // replicas, else minReplicas (what KubeRay starts with); neither written: unknown, never 1
            String n = text(wg, "groupName");
            String key = wg.get("replicas").isPresent() ? "replicas" : "minReplicas";
            out.add(new Role(n == null ? "worker" : n, integer(wg, key), true, map(wg, "template", "spec"), map(wg, "template", "metadata")));
        }
        MappingNode trainer = map(spec, "trainer");
        if (trainer != null) {
            Located<Long> n = integer(trainer, "numNodes");
            out.add(new Role("node", n == null && trainer.get("numNodes").isEmpty() ? new Located<>(1L, trainer.span()) : n,
                    trainerPod(trainer), null, trainer, "numNodes"));
        }
        if (kind.equals("JobSet")) {
            // each replicated Job runs replicas × its parallelism pods (JobSet's and batch/v1's defaults: 1)
            for (MappingNode rj : maps(spec, "replicatedJobs")) {
                String n = text(rj, "name");
                out.add(multiplied(n == null ? "job" : n, map(rj, "template", "spec", "template"), rj.span(),
                        scalar(rj, "replicas"), scalar(rj, "template", "spec", "parallelism")));
            }
        }
        if (kind.equals("LeaderWorkerSet")) {
            // one group is one job: a leader (leaderTemplate, else workerTemplate) and size − 1 workers; spec.replicas
            // counts independent copies of the group (each its own torchrun world), not nodes of one job
            MappingNode lwt = map(spec, "leaderWorkerTemplate");
            MappingNode worker = map(lwt, "workerTemplate"), leader = map(lwt, "leaderTemplate") != null ? map(lwt, "leaderTemplate") : worker;
            ScalarNode size = scalar(lwt, "size");
            out.add(multiplied("leader", leader, spec.span()));
            Located<Long> sz = integer(size);
            if (size != null && (sz == null || sz.value() > 1)) {        // size not written: 1, the leader alone
                ScalarNode workers = sz == null ? size : new ScalarNode(Long.toString(sz.value() - 1), false, size.span());
                out.add(multiplied("worker", worker, spec.span(), workers));
            }
        }
        if (kind.equals("Workload")) {
            for (MappingNode ps : maps(spec, "podSets")) {       // Kueue: each pod set's count × its pod template
                String n = text(ps, "name");
                out.add(multiplied(n == null ? "pods" : n, map(ps, "template"), ps.span(), scalar(ps, "count")));
            }
        }
        if (kind.equals("Job") && map(spec, "tasks") == null && map(spec, "template", "spec") != null) {     // batch/v1 (Kueue)
            out.add(multiplied("Job", map(spec, "template"), spec.span(), scalar(spec, "parallelism")));
        }
        for (MappingNode rj : maps(spec, "template", "spec", "replicatedJobs")) {
            String n = text(rj, "name");
            Located<Long> reps = kind.endsWith("TrainingRuntime") ? integer(spec, "mlPolicy", "numNodes") : integer(rj, "replicas");
            if (kind.endsWith("TrainingRuntime") && reps == null && "node".equals(n)) reps = new Located<>(1L, rj.span());
            out.add(new Role(n == null ? "job" : n, reps, map(rj, "template", "spec", "template", "spec"),
                    map(rj, "template", "spec", "template", "metadata"), rj, "replicas"));
        }
        return out;
    }

    /**
     * A role of {@code template}'s pods whose count is the product of {@code factors}, each 1 when not written (the
     * defaults of JobSet, batch/v1, LeaderWorkerSet and Kueue); one written as a placeholder makes the count unknown.
     */
    private static Role multiplied(String name, MappingNode template, Span at, ScalarNode... factors) {
        long v = 1;
        boolean unknown = false;
        Span span = null;
        for (ScalarNode f : factors) {
            if (f == null) continue;
            Located<Long> x = integer(f);
            if (x == null || (x.value() > 0 && v > Long.MAX_VALUE / x.value())) { unknown = true; continue; }
            v *= x.value();
            span = x.span();
        }
        return new Role(name, unknown ? null : new Located<>(v, span != null ? span : at), unknown, map(template, "spec"),
                map(template, "metadata"));
    }

    /** TrainJob's trainer block reads like one container. */
    private static MappingNode trainerPod(MappingNode trainer) {
        List<MappingNode.Entry> c = new ArrayList<>();
        for (String k : List.of("command", "args", "env")) {
            trainer.entry(k).ifPresent(c::add);
        }
        trainer.entry("resourcesPerNode").ifPresent(e -> c.add(new MappingNode.Entry(
                new ScalarNode("resources", false, e.key().span()), e.value())));
        MappingNode container = new MappingNode(c, trainer.span());
        ScalarNode key = new ScalarNode("containers", false, trainer.span());
        return new MappingNode(List.of(new MappingNode.Entry(key, new ListNode(List.of(container), trainer.span()))), trainer.span());
    }

    private static Pod pod(Role r, String source) {
        Pod p = new Pod();
        if (r.pod == null) return p;
        MappingNode annotations = map(r.podMeta, "annotations");
        if (annotations != null && annotations.get("k8s.v1.cni.cncf.io/networks").isPresent()) p.access = true;   // Multus
        Located<Boolean> hostNet = TreeValues.bool(scalar(r.pod, "hostNetwork"));
        if (hostNet != null && hostNet.value()) p.access = true;
        List<MappingNode> containers = new ArrayList<>(maps(r.pod, "containers"));
        for (MappingNode c : containers) {
            Container box = new Container();
            p.containers.add(box);
            for (String part : List.of("limits", "requests")) {
                MappingNode res = map(c, "resources", part);
                if (res == null) continue;
                for (MappingNode.Entry e : res.entries()) {
                    String k = e.key().text();
                    if (k.equals("nvidia.com/gpu")) {
                        Located<Long> written = TreeValues.whole(scalar(res, k));
                        if (written != null && written.value() > GPUS.max()) {
                            if (p.gpusOver == null) {
                                p.gpusOver = written;
                                p.gpusOverKey = "resources." + part + ".nvidia.com/gpu";
                            }
                            continue;
                        }
                        Located<Long> g = integer(scalar(res, k));
                        // limits win over requests; containers of one pod add up
                        if (g != null && (part.equals("limits") || !limitsSeen(c))) {
                            p.gpus = Math.max(0, p.gpus) + g.value();
                            box.gpus += g.value();
                            if (p.gpuSpan == null) p.gpuSpan = g.span();
                        }
                    } else if (rdmaResource(k)) {
                        Located<Long> n = integer(scalar(res, k));
                        if (n == null || n.value() > 0) p.rdma.add(new Located<>(k, e.key().span()));
                    }
                }
            }
            Located<Boolean> priv = TreeValues.bool(scalar(c, "securityContext", "privileged"));
            if (priv != null && priv.value()) p.access = true;
            for (MappingNode e : maps(c, "env")) {
                ScalarNode n = scalar(e, "name");
                ScalarNode v = scalar(e, "value");
                if (n != null && v != null && !v.isNull()) {
                    box.env.add(new EnvVar(n.text(), v.text(), v.span(), v.quoted() || YamlScalars.kubernetesString(v.text())));
                }
            }
            List<Word> words = box.words;
            for (String k : List.of("command", "args")) Launchers.command(c.get(k).orElse(null), source, box.launch, words, box.exports);
            Launchers.scan(words, box.launch);
        }
        return p;
    }


    /** Resources that bring RDMA devices into a pod (device plugins of the network operator, SR-IOV, EFA). */
    static boolean rdmaResource(String k) {
        String l = k.toLowerCase(Locale.ROOT);
        return l.startsWith("rdma/") || l.startsWith("nvidia.com/hostdev") || l.startsWith("nvidia.com/roce")
                || l.contains("sriov") || l.startsWith("mellanox.com/") || l.equals("vpc.amazonaws.com/efa")
                || l.startsWith("nvidia.com/rdma") || l.startsWith("nvidia.com/mlnx");
    }

    /** The GPU product a pod is pinned to by nodeSelector or node affinity. */
    private static void gpuModel(JobDraft j, MappingNode pod) {
        if (j.gpuModel != null || pod == null) return;
        MappingNode sel = map(pod, "nodeSelector");
        if (sel != null) {
            for (MappingNode.Entry e : sel.entries()) {
                if (GPU_LABELS.contains(e.key().text()) && e.value() instanceof ScalarNode s && !TreeValues.placeholder(s.text())) {
                    j.gpuModel = new Located<>(s.text(), s.span());
                    return;
                }
            }
        }
        for (MappingNode term : maps(pod, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")) {
            for (MappingNode ex : maps(term, "matchExpressions")) {
                String key = text(ex, "key");
                List<Node> values = list(ex, "values");
                if (key != null && GPU_LABELS.contains(key) && "In".equals(text(ex, "operator")) && values.size() == 1
                        && values.get(0) instanceof ScalarNode s) {
                    j.gpuModel = new Located<>(s.text(), s.span());
                    return;
                }
            }
        }
    }
}
