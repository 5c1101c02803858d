package dev.gpulint.derive.estimate;

import dev.gpulint.spec.Located;
import dev.gpulint.core.Span;
import dev.gpulint.derive.Resolved;
import dev.gpulint.spec.Specs;

/**
 * The clock and power limits a node group states for its GPUs ({@code gpu.clock_limit_mhz}, {@code gpu.power_limit_w},
 * docs/format.md): what `nvidia-smi -lgc` and `nvidia-smi -pl` set. A clock limit below the clock the datasheet's peaks
 * are computed at scales every dense peak by limit ÷ that clock (the tensor cores do a fixed number of FLOPs per clock). A
 * power limit alone changes nothing: the clock a power cap sustains depends on the workload, and the estimate does not
 * guess it; the assumptions say so and ask for the clock.
 *
 * @param limitMhz  the stated clock limit, 0 when none
 * @param limitSpan where it is written
 * @param powerW    the stated power limit, 0 when none
 * @param powerSpan where it is written
 */
public record GpuClock(long limitMhz, Span limitSpan, long powerW, Span powerSpan) {

    /** No limit stated. */
    public static final GpuClock NONE = new GpuClock(0, null, 0, null);

    /** The limits a node group states (none for a job without one). */
    public static GpuClock of(Resolved.Group g) {
        Specs.Gpu gpu = g == null || g.spec() == null ? null : g.spec().gpu();
        if (gpu == null) return NONE;
        Located<Long> c = gpu.clockLimitMhz(), p = gpu.powerLimitW();
        long mhz = c == null || c.value() == null ? 0 : c.value();
        long w = p == null || p.value() == null ? 0 : p.value();
        return new GpuClock(mhz, mhz > 0 ? c.span() : null, w, w > 0 ? p.span() : null);
    }

    /**
     * The factor the datasheet's peaks computed at {@code peakClockMhz} run at under this limit: limit ÷ peak clock when
     * the limit is below it, else 1; 1 when either clock is unknown.
     */
    public double scale(double peakClockMhz) {
        return factor(limitMhz, peakClockMhz);
    }

    /**
     * The factor peaks computed at {@code peakClockMhz} run at when the SMs run at {@code clockMhz} (stated, or measured
     * under load by nvidia-smi or DCGM): clock ÷ peak clock when it is below it, else 1; 1 when either clock is unknown.
     */
    public static double factor(double clockMhz, double peakClockMhz) {
        if (clockMhz <= 0 || peakClockMhz <= 0 || clockMhz >= peakClockMhz) return 1;
        return clockMhz / peakClockMhz;
    }
}
