package dev.gpulint.facts;

/**
 * What a place of a job read from another format states ({@link ConsistencyFact#getQuantityKind()}): WORLD, PER_NODE,
 * NODES, TP, PP, CP, EP, ETP, VPP, APP_GPUS_PER_NODE,
 * STEP_GPUS_PER_NODE, STEP_GPU_TYPE, STEP_TASKS_PER_NODE, STEP_LAUNCHERS_PER_NODE, COMM_BACKEND, GLOBAL_BATCH, MICRO_BATCH, ENV (a variable) or OTHER.
 */
public enum StatedQuantity {
    /** The job's ranks (GPUs) in all. */
    WORLD,
    /** Ranks (GPUs) per node. */
    PER_NODE,
    NODES, TP, PP, CP, EP, ETP, VPP,
    /** The GPUs the program itself asks for per node, against what a pod gets. */
    APP_GPUS_PER_NODE,
    /** The GPUs per node a Slurm step asks for (srun --gres), against the job's allocation. */
    STEP_GPUS_PER_NODE,
    /** The GPU type a Slurm step asks for (srun --gres=gpu:TYPE:N, "type h100"), against the type of the job's request ("no type" when untyped). */
    STEP_GPU_TYPE,
    /** The tasks per node of a Slurm step that starts Python directly (one rank per task), against the step's GPUs per node. */
    STEP_TASKS_PER_NODE,
    /** The tasks per node of a Slurm step that starts a launcher (torchrun...), each task one launcher, against its ranks per node. */
    STEP_LAUNCHERS_PER_NODE,
    COMM_BACKEND,
    /** A launch's global batch (samples per optimizer step), against a DeepSpeed configuration's train_batch_size. */
    GLOBAL_BATCH,
    /** A launch's micro batch (samples per GPU per forward pass), against train_micro_batch_size_per_gpu. */
    MICRO_BATCH,
    /** An environment variable (env:NAME). */
    ENV,
    /** A quantity no rule knows by name. */
    OTHER;

    /** The value a job's untyped GPU request states for {@code gpu_type} (srun steps are compared with it: CONSIST001). */
    public static final String NO_GPU_TYPE = "no type";

    /** The kind of the quantity named {@code id} ("world", "per_node", "env:NCCL_IB_HCA"). */
    public static StatedQuantity of(String id) {
        if (id.startsWith("env:")) return ENV;
        for (StatedQuantity q : values()) if (q != ENV && q != OTHER && q.name().toLowerCase(java.util.Locale.ROOT).equals(id)) return q;
        return OTHER;
    }

    /** How many ranks and nodes the job has: WORLD, PER_NODE or NODES. */
    public boolean isSize() { return this == WORLD || this == PER_NODE || this == NODES; }

    /** A parallel size: TP, PP, CP, EP, ETP or VPP. */
    public boolean isParallelism() { return this == TP || this == PP || this == CP || this == EP || this == ETP || this == VPP; }
}
