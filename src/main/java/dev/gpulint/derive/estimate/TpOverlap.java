package dev.gpulint.derive.estimate;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;

/**
 * What of the tensor-parallel all-gathers and reduce-scatters a micro-batch exposes: the one home of Megatron's
 * {@code --tp-comm-overlap} (NeMo's {@code ub_tp_comm_overlap}: Transformer Engine's userbuffers split each collective
 * and its GEMM into chunks that run at once), torchtitan's async TP ({@code [parallelism] enable_async_tensor_parallel}:
 * the compiled graph's all-gather-matmul and matmul-reduce-scatter, micro-pipelined over symmetric memory) and plain TP.
 *
 * <ul>
 * <li>{@link Mode#PLAIN}: every collective on the critical path (DTensor's eager collectives; Megatron without the flag).
 * <li>{@link Mode#OVERLAPPED}: each collective runs beside the GEMM it feeds or follows — the all-gather before the QKV
 *     and first MLP GEMM, the reduce-scatter after the output projection and the second MLP GEMM, forward, in each
 *     recomputed forward and (their gradients) behind the same GEMM's input-gradient backward — and exposes what
 *     outlasts it, and at least what the GEMM beside it loses: {@code Σ max(c − g_k, (1 − dp_overlap)·c)} per layer, c
 *     one collective's time, g_k that GEMM's time at the achieved GEMM rate. The second bound is the data-parallel
 *     term's (Term.DpExposure): Lee et al. 2025 (arXiv:2507.03114) measured compute 18.9 % slower beside a collective,
 *     so 61 % of a hidden collective's time stays on the step (the catalog's dp_overlap 0.39 is the share hidden); a
 *     sourced constant, not fitted, and the same for every overlapped collective. Without it the formula hid all of a
 *     collective shorter than its GEMM and made torchtitan's async TP 22-25 % faster than plain TP where 6-16 % was
 *     measured (bench/plan/torchtitan.tsv). An MoE layer's MLP collectives have no dense GEMM to hide behind (its
 *     experts are MoeCost's): they stay exposed.
 * <li>{@link Mode#FAMILY}: the job does not say (a native manifest without {@code parallelism.tp_comm_overlap}, a format
 *     gpulint does not read it from): the GPU family's {@code tp_overlap} share is hidden, as before this class (Hopper's
 *     0.5 was fitted on NeMo 24.09's H100 runs, which overlap).
 * </ul>
 *
 * @param mode how the job runs its tp collectives
 */
public record TpOverlap(Mode mode) {
    public enum Mode { FAMILY, PLAIN, OVERLAPPED }

    public static final TpOverlap FAMILY = new TpOverlap(Mode.FAMILY), PLAIN = new TpOverlap(Mode.PLAIN),
            OVERLAPPED = new TpOverlap(Mode.OVERLAPPED);

    /** The job's mode as it states it, else its format's default; one line of {@code as} when tp > 1. */
    static TpOverlap of(Specs.Job j, long tp, List<String> as) {
        Specs.Parallelism p = j.parallelism();
        Located<Boolean> stated = p == null ? null : p.tpCommOverlap();
        Format f = j.origin() == null ? Format.NATIVE : Format.of(j.origin().format());
        // Megatron-LM's flags in a launch script (Kubernetes, Slurm, a shell script): Megatron's defaults
        if (j.origin() != null && "--tensor-model-parallel-size".equals(j.origin().key(Specs.Origin.TP))) f = Format.MEGATRON;
        String key = switch (f) {
            case MEGATRON -> "--tp-comm-overlap";
            case NEMO -> "model.ub_tp_comm_overlap";
            case TORCHTITAN -> "[parallelism] enable_async_tensor_parallel";
            case NEMO2_RECIPE -> "MegatronCommOverlapCallback tp_comm_overlap";
            default -> "parallelism.tp_comm_overlap";
        };
        if (stated != null && stated.value() != null) {
            boolean on = stated.value();
            if (tp > 1) as.add(on
                    ? "tensor-parallel overlap (" + key + "): each tp all-gather/reduce-scatter runs beside the GEMM it feeds or"
                            + " follows; exposed only what outlasts that GEMM (TpOverlap)"
                    : "no tensor-parallel overlap (" + key + " false): every tp all-gather/reduce-scatter on the critical path");
            return on ? OVERLAPPED : PLAIN;
        }
        String byDefault = switch (f) {
            case MEGATRON -> "--tp-comm-overlap not given: off, Megatron-LM's default";
            case NEMO -> "model.ub_tp_comm_overlap not given: False, NeMo's default (megatron_gpt_config.yaml)";
            case TORCHTITAN -> "[parallelism] enable_async_tensor_parallel not given: false, torchtitan's default (plain TP)";
            default -> null;
        };
        if (byDefault != null) {
            if (tp > 1) as.add(byDefault + ": every tp all-gather/reduce-scatter on the critical path");
            return PLAIN;
        }
        if (tp > 1) as.add("tensor-parallel overlap not stated (parallelism.tp_comm_overlap): the GPU family's tp_overlap share"
                + " of the tp collectives hidden");
        return FAMILY;
    }

    /**
     * The forward time of the four GEMMs a layer's tp collectives run beside: QKV, output projection, first and second MLP
     * matrix (the MLP ones 0 for an MoE model: its experts follow the dispatcher, not these collectives). Seconds.
     *
     * @param tokens the micro-batch's tokens per GPU's sequence share
     * @param rate   the achieved GEMM rate, FLOP/s
     */
    static double[] gemmSeconds(ModelShape m, Layout l, double tokens, double rate) {
        double out = (double) m.heads() * m.headDim() * m.hidden();
        double qkv = Math.max(0, m.attentionParameters() - out);
        boolean moe = m.experts() > 1;
        double fc1 = moe ? 0 : (m.gatedMlp() ? 2.0 : 1.0) * m.hidden() * m.ffn(), fc2 = moe ? 0 : (double) m.ffn() * m.hidden();
        double per = 2 * tokens / l.tp() / rate;
        return new double[] {qkv * per, out * per, fc1 * per, fc2 * per};
    }

    /**
     * The exposed seconds per micro-batch of {@code seconds} of tp collectives, {@code count} per layer over
     * {@code layers} layers, beside the GEMMs of {@link #gemmSeconds}; {@code hidden} is the share of an overlapped
     * collective the compute beside it absorbs (the catalog's dp_overlap).
     */
    double exposed(double seconds, double count, double layers, double[] gemms, double familyOverlap, double hidden) {
        if (seconds <= 0) return 0;
        return switch (mode) {
            case PLAIN -> seconds;
            case FAMILY -> seconds * (1 - familyOverlap);
            case OVERLAPPED -> {
                double c = seconds / (count * layers), pairs = count / 4, per = 0;
                for (double g : gemms) per += Math.max(c - g, (1 - hidden) * c);
                yield Math.min(seconds, layers * pairs * per);
            }
        };
    }
}
