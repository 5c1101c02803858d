package dev.gpulint.derive.estimate;

import dev.gpulint.derive.estimate.ModelShape.Dtype;

/**
 * The width of one gradient element, decided once for memory and for the wire: {@code held} is what the model states
 * keep per parameter ({@link StateBytes#gradients()}, MEM001–MEM003 and the plan's memory), {@code reduced} what the
 * data-parallel reduction moves per element ({@link GradientReduce}, NET003 and the plan's dp collectives). They differ
 * on purpose in one case: a ZeRO/FSDP job that states nothing holds the ZeRO paper's 2-byte gradients but reduces in
 * fp32 (torchtitan's {@code mixed_precision_reduce} default float32, DeepSpeed's bf16 gradient accumulation in fp32;
 * making that reduction 16-bit worsened held-out llm-foundry rows, bench/plan_calibration.py). In order:
 * <ol>
 * <li>the bytes per parameter the job states (optimizer.bytes_per_parameter; Megatron's --grad-reduce-in-bf16 and NeMo's
 *     grad_reduce_in_fp32: false bind to 16): held {@code t − 14} for 14 and more, else the ZeRO proportions
 *     {@code t·2/16}; reduced in fp32 for fp32 / tf32 training, else in the stated reduction dtype, else the held
 *     width, between 2 and 4;</li>
 * <li>fp32 / tf32 training: 4 and 4;</li>
 * <li>the reduction dtype the job states (optimizer.grad_reduce_dtype, torchtitan's mixed_precision_reduce): reduced in
 *     it; without ZeRO it is also the dtype of the main-gradient buffer (Megatron's grad buffer is in the reduce dtype),
 *     with ZeRO the held width stays the ZeRO accounting's;</li>
 * <li>otherwise: held 2 under ZeRO, with no dtype stated and in fp16; 4 for bf16 and fp8 (Megatron's fp32 main
 *     gradients); reduced in fp16 for fp16, fp32 for everything else.</li>
 * </ol>
 *
 * @param held        bytes per gradient element in the model states, before sharding
 * @param reduced     bytes per gradient element the data-parallel reduction moves
 * @param reduceDtype the reduction dtype the job states (null: none)
 * @param reduceWhere where the job states it ("optimizer.grad_reduce_dtype", "[training] mixed_precision_reduce"), or null
 */
public record GradientWidth(double held, double reduced, Dtype reduceDtype, String reduceWhere) {

    /**
     * The one decision.
     *
     * @param dtype       the training dtype stated (null: none)
     * @param zeroStage   the ZeRO stage (0: none)
     * @param stated      model-state bytes per parameter the job states, null when none
     * @param reduceDtype the reduction dtype the job states, null when none
     * @param reduceWhere where it is stated
     */
    public static GradientWidth of(Dtype dtype, int zeroStage, Double stated, Dtype reduceDtype, String reduceWhere) {
        boolean wide = dtype == Dtype.FP32 || dtype == Dtype.TF32;
        double r = reduceDtype == null ? 0 : bytes(reduceDtype);
        if (stated != null && stated > 0) {
            double held = stated >= 14 ? stated - 14 : stated * 2 / 16;
            return new GradientWidth(held, wide ? 4 : r > 0 ? r : Math.min(4, Math.max(2, held)), reduceDtype, reduceWhere);
        }
        if (wide) return new GradientWidth(4, 4, reduceDtype, reduceWhere);
        double held = zeroStage > 0 || dtype == null || dtype == Dtype.FP16 ? 2 : r > 0 ? r : 4;
        double reduced = r > 0 ? r : dtype == Dtype.FP16 ? 2 : 4;
        return new GradientWidth(held, reduced, reduceDtype, reduceWhere);
    }

    /** Bytes of one element of a reduction dtype: 4 for fp32 and tf32, 2 for the 16-bit ones (fp8 reduces in bf16). */
    static double bytes(Dtype d) {
        return d == Dtype.FP32 || d == Dtype.TF32 ? 4 : 2;
    }
}
