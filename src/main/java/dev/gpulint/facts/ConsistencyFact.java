package dev.gpulint.facts;

import dev.gpulint.core.Span;
import dev.gpulint.spec.Format;
import dev.gpulint.spec.Specs.StatedKind;

/**
 * Two places of one job, read from another format, that state one quantity with different
 * values: {@code found} is the place reported, {@code reference} the place it is compared with
 * (the pods' resources, else the configuration, else the launcher; for app_gpus_per_node and
 * step_gpus_per_node, the GPUs a pod, or a node of the allocation, gets; for step_gpu_type, the type of the job's GPU request).
 */
public final class ConsistencyFact {
    /** One place: its value as written, that value as a whole number (-1 when it is none), a short description, its kind and span. */
    public record Place(String value, long number, String where, StatedKind kind, Span span) {}

    private final String job, format, quantity;
    private final Place found, reference, launch;

    /**
     * {@code launch} is, for a variable, the place whose value the ranks get where the launcher's precedence is known (srun
     * --export, mpirun -x over the env, an export before the launch over the env it starts with): its value null when the
     * launch gets none (unset, srun --export without ALL nor the name); null when the precedence is not known, and for a size.
     */
    public ConsistencyFact(String job, String format, String quantity, Place found, Place reference, Place launch) {
        this.job = job;
        this.format = format;
        this.quantity = quantity;
        this.found = found;
        this.reference = reference;
        this.launch = launch;
    }

    /** The job's name. */
    public String getJob() { return job; }
    /** The format the job was read from, as a name ("Kubernetes PyTorchJob"). */
    public String getFormat() { return format; }
    /** The format the job was read from, as the id rules test: Format.TORCHTITAN. */
    public Format getFormatId() { return Format.of(format); }
    /** What is stated: world, per_node, nodes, app_gpus_per_node, step_gpus_per_node, step_gpu_type, tp, pp, cp, ep, etp, vpp, comm_backend, or env:NAME. */
    public String getQuantity() { return quantity; }
    /** What is stated, as rules test it: StatedQuantity.WORLD, ... ENV for a variable. */
    public StatedQuantity getQuantityKind() { return StatedQuantity.of(quantity); }
    /** The quantity is an NCCL variable (env:NCCL_...). */
    public boolean isNcclVariable() { return quantity.startsWith("env:NCCL_"); }
    /** For an environment variable (env:NAME), its name: "NCCL_IB_HCA"; else the quantity. */
    public String getVariable() { return quantity.startsWith("env:") ? quantity.substring(4) : quantity; }
    /** The reported place's value, as written. */
    public String getFoundValue() { return found.value(); }
    /** The reported place's value as a whole number; -1 when it is not one (a backend name, most variables). */
    public long getFoundNumber() { return found.number(); }
    /** The reported place, as a noun phrase: "MODEL_ARGS --tensor-model-parallel-size", "the test case's folder name 'tp2' (tp2)". */
    public String getFoundWhere() { return found.where(); }
    /** The kind of the reported place: CONFIG, LAUNCHER, RESOURCE (a pod's resources) or NAME (the file's or folder's name). */
    public StatedKind getFoundKind() { return found.kind(); }
    /** Where the reported value is written; the reference's span when the place has none (a name). */
    public Span getFoundSpan() { return found.span(); }
    /** The reference place's value, as written. */
    public String getReferenceValue() { return reference.value(); }
    /** The reference place's value as a whole number; -1 when it is not one. */
    public long getReferenceNumber() { return reference.number(); }
    /** The reference place, as a noun phrase. */
    public String getReferenceWhere() { return reference.where(); }
    /** The kind of the reference place: CONFIG, LAUNCHER or RESOURCE. */
    public StatedKind getReferenceKind() { return reference.kind(); }
    /** Where the reference value is written; null when it has no position. */
    public Span getReferenceSpan() { return reference.span(); }

    /** A step's GPU type compared with a job whose GPU request names no type (the reference is {@link StatedQuantity#NO_GPU_TYPE}). */
    public boolean isJobGpuUntyped() { return getQuantityKind() == StatedQuantity.STEP_GPU_TYPE && StatedQuantity.NO_GPU_TYPE.equals(reference.value()); }

    /** Which value the ranks get is known: the launcher's precedence decides between the places (LaunchEnvironment). */
    public boolean isLaunchKnown() { return launch != null; }
    /** The value the ranks get, as written; null when it is not known or the launch gets none. */
    public String getLaunchValue() { return launch == null ? null : launch.value(); }
    /** The place the ranks' value is set, as a noun phrase ("export", "mpirun -x"); null when not known or none. */
    public String getLaunchWhere() { return launch == null ? null : launch.where(); }
    /**
     * Why the ranks get {@link #getLaunchValue()}, by the launcher that decides (LaunchEnvironment): MPI (mpirun -x,
     * mpiexec -env: over the environment mpirun starts with), SRUN_LIST (srun --export without ALL: only its list),
     * SRUN_ALL (srun --export=ALL: the caller's exported value over the list's NAME=value), SHELL (an export before the
     * launch over the env the command starts with), AFTER (the env the command starts with: the script's change comes
     * after the launch or in a shell the launch does not run in); null when not known.
     */
    public String getLaunchWhy() {
        if (launch == null || launch.where() == null) return null;
        String w = launch.where(), other = w.equals(found.where()) ? reference.where() : found.where();
        if (w.equals("mpirun -x") || w.startsWith("mpiexec ")) return "MPI";
        if (w.equals("srun --export")) return "SRUN_LIST";
        if (other.equals("srun --export")) return "SRUN_ALL";
        return w.contains("export") ? "SHELL" : "AFTER";
    }
    /** The ranks' value is known and the launch gets none of the places' values (unset, srun --export without the name). */
    public boolean isLaunchGetsNone() { return launch != null && launch.value() == null; }

    /**
     * Whether the two places are in different files: a launch script and the script it runs, or
     * the configuration it passes (CONSIST007); the same-file rules (CONSIST001, CONSIST002,
     * CONSIST005's sizes) leave these alone.
     */
    public boolean isCrossFile() {
        return found.span() != null && reference.span() != null && !found.span().file().equals(reference.span().file());
    }

    /**
     * The place found is an MPI launcher's rank count written as one number ({@code mpirun -np 8}, mpiexec's
     * {@code -n}), not multiplied by nccl-tests' {@code -g}: CONSIST001's fix sets it to the reference's GPUs.
     */
    public boolean isMpiRanks() {
        return getQuantityKind() == StatedQuantity.WORLD && found.kind() == StatedKind.LAUNCHER && found.number() > 0
                && found.where().matches("\\S*mpi\\S* -{1,2}(np|n|c) [0-9]+");
    }

    /** The file the reference place is written in; null when it has no position. */
    public String getReferenceFile() { return reference.span() == null ? null : reference.span().file(); }

    /** The stable name of what a finding on this fact is about, for fingerprints. */
    public String identity() { return "job:" + job + "/" + quantity + "/" + found.where(); }

    @Override public String toString() {
        return "ConsistencyFact[" + job + " " + quantity + ": " + found.value() + " (" + found.where() + ") vs "
                + reference.value() + " (" + reference.where() + ")]";
    }
}
