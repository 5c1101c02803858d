package dev.gpulint.derive.estimate;

/**
 * Bytes per parameter of weights, gradients and optimizer states, and how each is sharded: the one model-state
 * accounting MEM001, MEM002, MEM003 and `gpulint plan` read (docs/plan.md, "Memory"). Which accounting a job gets:
 * <ol>
 * <li>{@link Accounting#STATED}: the job states its bytes per parameter (optimizer.bytes_per_parameter, or another
 *     format's gradient dtype: Megatron's --grad-reduce-in-bf16, NeMo's grad_sync_dtype / grad_reduce_in_fp32: false
 *     give 16): 2 weights + (total − 14) gradients + 12 optimizer states (totals under 14, 8-bit optimizers: the
 *     ZeRO paper's proportions 2:2:12);</li>
 * <li>{@link Accounting#FP32}: model.dtype fp32 or tf32: 4 weights + 4 gradients + 8 Adam moments;</li>
 * <li>{@link Accounting#ZERO}: a ZeRO stage (DeepSpeed, FSDP): the ZeRO paper's mixed-precision Adam, 2 + 2 + 12
 *     (Rajbhandari et al. 2020, sec. 3.1);</li>
 * <li>{@link Accounting#MEGATRON_FP16}: fp16: 2 + 2 + 12, and with the distributed optimizer its fp32 gradient
 *     shard 4/dp (Megatron docs/user-guide/features/dist_optimizer.md); without it the fp32 copies exist only during
 *     the optimizer step, after the activations are freed;</li>
 * <li>{@link Accounting#MEGATRON_BF16}: bf16 or fp8: 2 bf16 weights + 4 fp32 main gradients + 12 (Megatron-LM forces
 *     fp32 gradient accumulation with --bf16; theoretical_memory_usage.py's 18, and 6 + 12/dp with the distributed
 *     optimizer);</li>
 * <li>{@link Accounting#LEAST}: no dtype stated: the ZeRO paper's 2 + 2 + 12, the least any mixed-precision Adam
 *     holds, so that nothing the job does not say makes it look bigger.</li>
 * </ol>
 * Sharding ({@link #sharded}): ZeRO stage 1 or Megatron's distributed optimizer divide the optimizer states over the
 * data-parallel ranks (dp·cp: Megatron's data-parallel group with context parallelism), stage 2 also the gradients,
 * stage 3 (FSDP FULL_SHARD) also the weights.
 *
 * The gradients' width is {@link GradientWidth}'s decision, the same one the data-parallel reduction reads
 * ({@link #width()}, {@link GradientReduce}): one home for both.
 *
 * @param dtype the dtype the job states, null when it states none
 * @param where what the accounting comes from, for {@link Accounting#STATED}: the key that states it (else null)
 * @param width the gradient's width in memory (before sharding) and on the wire
 */
public record StateBytes(double weights, double gradients, double optimizer, Accounting accounting, ModelShape.Dtype dtype,
                         String where, GradientWidth width) {

    /** The named accountings; {@link #id()} is how messages (ID.yaml) choose their wording. */
    public enum Accounting {
        STATED, FP32, ZERO, MEGATRON_FP16, MEGATRON_BF16, LEAST;

        /** "megatron-bf16": the branch label ID.yaml templates select on. */
        public String id() { return id; }

        // made once: the plan search asks it for every layout's memory fact (hundreds of thousands)
        private final String id = name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /** Bytes per parameter before sharding. */
    public double total() { return weights + gradients + optimizer; }

    /** Without a source: the split of a named accounting. */
    public StateBytes(double weights, double gradients, double optimizer, Accounting accounting) {
        this(weights, gradients, optimizer, accounting, null, null, null);
    }

    public StateBytes {
        if (width == null) {
            // a split given as numbers: held as given, reduced by the dtype's default (stated bytes: the held width)
            GradientWidth d = GradientWidth.of(dtype, 0, null, null, null);
            width = new GradientWidth(gradients, accounting == Accounting.STATED && dtype != ModelShape.Dtype.FP32
                    && dtype != ModelShape.Dtype.TF32 ? Math.min(4, Math.max(2, gradients)) : d.reduced(), null, null);
        }
    }

    /**
     * The same job's accounting for another layout's sharding choice (a plan's candidate with ZeRO or the distributed
     * optimizer): bytes the job states stay as stated; the others follow the stated dtype and the layout's choice.
     */
    public StateBytes at(int zeroStage, boolean distributed) {
        return accounting == Accounting.STATED ? this
                : of(dtype, zeroStage, distributed, null, null, width.reduceDtype(), width.reduceWhere());
    }

    /**
     * A job's accounting.
     *
     * @param dtype       model.dtype as stated; null when the job does not state it
     * @param zeroStage   the ZeRO stage (0: none)
     * @param distributed Megatron's distributed optimizer
     * @param stated      the bytes per parameter the job states, null when it states none
     * @param where       where they are stated ("optimizer.bytes_per_parameter", "--grad-reduce-in-bf16 ...")
     */
    public static StateBytes of(ModelShape.Dtype dtype, int zeroStage, boolean distributed, Double stated, String where) {
        return of(dtype, zeroStage, distributed, stated, where, null, null);
    }

    /**
     * A job's accounting with the gradient reduction's dtype it states ({@code reduce}, at {@code reduceWhere}; null
     * when none): see {@link GradientWidth} for what it changes (a bf16 job without ZeRO that reduces in bf16 keeps
     * bf16 main gradients: 2 + 2 + 12, {@link Accounting#STATED} by that key).
     */
    public static StateBytes of(ModelShape.Dtype dtype, int zeroStage, boolean distributed, Double stated, String where,
                                ModelShape.Dtype reduce, String reduceWhere) {
        GradientWidth w = GradientWidth.of(dtype, zeroStage, stated, reduce, reduceWhere);
        double g = w.held();
        if (stated != null && stated > 0) {
            double t = stated;
            String from = where == null ? "optimizer.bytes_per_parameter" : where;
            return t >= 14 ? new StateBytes(2, g, 12, Accounting.STATED, dtype, from, w)
                    : new StateBytes(t * 2 / 16, g, t * 12 / 16, Accounting.STATED, dtype, from, w);
        }
        if (dtype == ModelShape.Dtype.FP32 || dtype == ModelShape.Dtype.TF32) return new StateBytes(4, g, 8, Accounting.FP32, dtype, null, w);
        if (zeroStage > 0) return new StateBytes(2, g, 12, Accounting.ZERO, dtype, null, w);
        if (dtype == null) return new StateBytes(2, g, 12, Accounting.LEAST, null, null, w);
        if (dtype == ModelShape.Dtype.FP16) return new StateBytes(2, g, distributed ? 16 : 12, Accounting.MEGATRON_FP16, dtype, null, w);
        return g < 4 ? new StateBytes(2, g, 12, Accounting.STATED, dtype, reduceWhere, w)
                : new StateBytes(2, g, 12, Accounting.MEGATRON_BF16, dtype, null, w);
    }

    /**
     * The accounting of a job as its manifest (of any format) states it: model.dtype, the ZeRO stage, Megatron's
     * distributed optimizer (optimizer.distributed, --use-distributed-optimizer, NeMo's distributed_fused_adam or
     * use_distributed_optimizer), and the bytes per parameter with where another format stated them.
     */
    public static StateBytes of(dev.gpulint.spec.Specs.Job j, long zeroStage) {
        dev.gpulint.spec.Specs.Model m = j.model();
        ModelShape.Dtype dtype = m == null || m.dtype() == null ? null : ModelShape.Dtype.parse(m.dtype().value());
        dev.gpulint.spec.Specs.Optimizer o = j.optimizer();
        Double stated = o == null || o.bytesPerParameter() == null ? null : o.bytesPerParameter().value();
        String where = stated == null ? null : j.statedWhere("bytes_per_parameter");
        Reduce r = Reduce.of(j);
        return of(dtype, (int) Math.max(0, zeroStage), distributed(j), stated, where, r == null ? null : r.dtype(), r == null ? null : r.where());
    }

    /**
     * The gradient reduction's dtype a job states: optimizer.grad_reduce_dtype as bound from any format (torchtitan's
     * mixed_precision_reduce), with the key that states it; null when the job states none or one that is not fp32,
     * bf16 or fp16 (under their torch names too).
     */
    public record Reduce(ModelShape.Dtype dtype, String where) {
        public static Reduce of(dev.gpulint.spec.Specs.Job j) {
            dev.gpulint.spec.Specs.Optimizer o = j.optimizer();
            if (o == null || o.gradReduceDtype() == null || o.gradReduceDtype().value() == null) return null;
            ModelShape.Dtype d = ModelShape.Dtype.parse(o.gradReduceDtype().value());
            if (d != ModelShape.Dtype.FP32 && d != ModelShape.Dtype.BF16 && d != ModelShape.Dtype.FP16) return null;
            String where = j.statedWhere("grad_reduce_dtype");
            return new Reduce(d, where == null ? "optimizer.grad_reduce_dtype" : where);
        }
    }

    /** The job uses Megatron's distributed optimizer (as the binder reads it from any format). */
    public static boolean distributed(dev.gpulint.spec.Specs.Job j) {
        dev.gpulint.spec.Specs.Optimizer o = j.optimizer();
        return o != null && o.distributed() != null && Boolean.TRUE.equals(o.distributed().value());
    }

    /**
     * Bytes per parameter on one GPU after sharding over {@code ranks} data-parallel ranks (dp·cp; for expert
     * parameters the expert data-parallel size). {@code ranks} may be infinite: dp is not known, and the sharded parts
     * are left out (the least the job can need).
     */
    public StateBytes sharded(int zeroStage, boolean distributed, double ranks) {
        double d = Math.max(1, ranks);
        double w = weights, g = gradients, o = optimizerShard(optimizer, zeroStage, distributed, ranks);
        if (zeroStage >= 2) g /= d;
        if (zeroStage >= 3) w /= d;
        return new StateBytes(w, g, o, accounting, dtype, where, width);
    }

    /**
     * The states as FSDP holds them under pipeline parallelism ({@link ShardedGathers#pipelined}): the gradients accumulate
     * unsharded over the step's micro-batches in the reduction's dtype (FSDP2's FSDPParam.to_accumulated_grad_if_needed
     * keeps {@code unsharded_accumulated_grad} in {@code reduce_dtype} while gradient sync is off, pytorch/pytorch
     * torch/distributed/fsdp/_fully_shard/_fsdp_param.py), so they are held at the wider of the held and reduced widths.
     */
    public StateBytes accumulatedWhole() {
        return new StateBytes(weights, Math.max(gradients, width.reduced()), optimizer, accounting, dtype, where, width);
    }

    /**
     * What of {@code parameters} one of {@code ranks} data-parallel ranks keeps optimizer states for (and steps): a
     * {@code ranks}-th under ZeRO stage 1 and up or Megatron's distributed optimizer, else all of them. The one rule
     * {@link #sharded} divides the optimizer states by and the optimizer step's time counts ({@link MemoryModel#optimizerShard}).
     */
    static double optimizerShard(double parameters, int zeroStage, boolean distributed, double ranks) {
        return zeroStage >= 1 || distributed ? parameters / Math.max(1, ranks) : parameters;
    }

    /** What the plan's assumptions list says of it: "18 bytes per parameter before sharding (Megatron's bf16: ...)". */
    public String describe(boolean distributed, int zeroStage) {
        String split = fmt(weights) + " weights + " + fmt(gradients) + " gradients + " + fmt(optimizer) + " optimizer states";
        String why = switch (accounting) {
            case STATED -> "as stated by " + where;
            case FP32 -> "fp32: 4 weights + 4 gradients + 8 Adam moments";
            case ZERO -> "the ZeRO paper's mixed-precision Adam, as ZeRO-" + zeroStage + " counts it";
            case MEGATRON_FP16 -> "Megatron's fp16: 2 weights + 2 gradients + 12 Adam" + (distributed
                    ? " + 4 fp32 gradient shard" : "; the fp32 gradient copies exist only during the optimizer step");
            case MEGATRON_BF16 -> "Megatron's bf16: 2 bf16 weights + 4 fp32 main gradients + 12 Adam";
            case LEAST -> "model.dtype not stated: the ZeRO paper's mixed-precision Adam, the least a 16-bit job with Adam holds";
        };
        String shard = zeroStage >= 1 ? ", ZeRO-" + zeroStage + " shards " + (zeroStage == 1 ? "the optimizer states"
                : zeroStage == 2 ? "the optimizer states and gradients" : "optimizer states, gradients and weights") + " over dp·cp"
                : distributed ? ", the distributed optimizer shards the optimizer states over dp·cp" : "";
        return "model states " + fmt(total()) + " bytes per parameter before sharding (" + split + "; " + why + ")" + shard;
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(java.util.Locale.ROOT, "%.3g", v);
    }
}
