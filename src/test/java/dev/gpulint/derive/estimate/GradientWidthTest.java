package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.derive.estimate.ModelShape.Dtype;
import org.junit.jupiter.api.Test;

/** One decision of a gradient's width, held and reduced, that StateBytes and GradientReduce both read. */
class GradientWidthTest {

    private static void width(double held, double reduced, GradientWidth w, String why) {
        assertEquals(held, w.held(), why + ": held");
        assertEquals(reduced, w.reduced(), why + ": reduced");
    }

    @Test
    void defaultsByPrecisionAndSharding() {
        width(4, 4, GradientWidth.of(Dtype.BF16, 0, null, null, null), "Megatron bf16: fp32 main gradients, fp32 reduction");
        width(2, 4, GradientWidth.of(Dtype.BF16, 3, null, null, null), "ZeRO/FSDP: 2-byte gradients held, fp32 reduction kept");
        width(2, 4, GradientWidth.of(null, 0, null, null, null), "nothing stated: the least held, the bf16 default reduced");
        width(2, 2, GradientWidth.of(Dtype.FP16, 0, null, null, null), "fp16 keeps fp16 gradients");
        width(4, 4, GradientWidth.of(Dtype.FP32, 3, null, null, null), "fp32 training");
        width(4, 4, GradientWidth.of(Dtype.FP8, 0, null, null, null), "fp8 as bf16");
    }

    @Test
    void statedBytesAndStatedReductionDtype() {
        width(2, 2, GradientWidth.of(Dtype.BF16, 0, 16.0, null, null), "--grad-reduce-in-bf16: 16 bytes stated");
        width(4, 4, GradientWidth.of(Dtype.BF16, 0, 18.0, null, null), "18 stated");
        width(4, 4, GradientWidth.of(Dtype.FP32, 0, 18.0, null, null), "fp32 training reduces in fp32 whatever is stated");
        width(2, 2, GradientWidth.of(Dtype.BF16, 0, null, Dtype.BF16, "optimizer.grad_reduce_dtype"), "bf16 DDP buffer");
        width(2, 2, GradientWidth.of(Dtype.BF16, 3, null, Dtype.BF16, "x"), "FSDP reducing in bf16");
        width(2, 4, GradientWidth.of(Dtype.BF16, 3, null, Dtype.FP32, "x"), "FSDP stating fp32");
        width(2, 4, GradientWidth.of(Dtype.BF16, 0, 16.0, Dtype.FP32, "x"), "stated reduction wins on the wire");
    }

    @Test
    void stateBytesAndGradientReduceReadTheSameWidth() {
        for (Dtype d : new Dtype[] {null, Dtype.BF16, Dtype.FP16, Dtype.FP32, Dtype.FP8}) {
            for (int z = 0; z <= 3; z++) {
                for (Double stated : new Double[] {null, 16.0, 18.0}) {
                    for (Dtype r : new Dtype[] {null, Dtype.BF16, Dtype.FP32}) {
                        StateBytes b = StateBytes.of(d, z, false, stated, null, r, r == null ? null : "optimizer.grad_reduce_dtype");
                        GradientWidth w = GradientWidth.of(d, z, stated, r, "optimizer.grad_reduce_dtype");
                        String at = d + " zero " + z + " stated " + stated + " reduce " + r;
                        assertEquals(w.held(), b.gradients(), at);
                        assertEquals(w.reduced(), GradientReduce.bytes(d == null ? Dtype.BF16 : d, b), at);
                    }
                }
            }
        }
    }

    @Test
    void aBf16JobWithoutZeroThatReducesInBf16HoldsBf16MainGradientsAsStated() {
        StateBytes b = StateBytes.of(Dtype.BF16, 0, false, null, null, Dtype.BF16, "[training] mixed_precision_reduce");
        assertEquals(StateBytes.Accounting.STATED, b.accounting());
        assertEquals(16, b.total());
        assertEquals("[training] mixed_precision_reduce", b.where());
        assertEquals(b, b.at(0, true), "stated bytes stay as stated for a candidate layout");
        StateBytes zero = StateBytes.of(Dtype.BF16, 0, false, null, null, Dtype.BF16, "x").at(3, false);
        assertEquals(2, zero.width().reduced());
        StateBytes kept = StateBytes.of(Dtype.BF16, 3, false, null, null, Dtype.FP32, "x").at(0, false);
        assertEquals(4, kept.width().reduced(), "a candidate keeps the job's stated reduction dtype");
    }
}
