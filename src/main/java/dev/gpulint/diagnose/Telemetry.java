package dev.gpulint.diagnose;

import dev.gpulint.core.Span;
import dev.gpulint.read.evidence.Evidence;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What GPU telemetry samples (nvidia-smi dmon, --query-gpu CSV, dcgm-exporter) say over time: utilisation per sampling
 * instant (the GPUs' mean), the instants it dips, the GPUs' NVLink and PCIe traffic at those instants and at the busy
 * ones, and the SM clock and power while busy. Counters ("_total") become rates only between two samples of one GPU
 * and the seconds between them; a counter alone is never read as a rate.
 *
 * @param instants      sampling instants
 * @param meanUtil      utilisation over all samples, percent (-1: none printed)
 * @param dips          instants whose mean utilisation is below {@link #DIP} percent
 * @param lowest        the sample of the lowest instant's first GPU (null: no utilisation)
 * @param lowestUtil    that instant's mean utilisation, percent
 * @param dipTraffic    mean NVLink + PCIe bytes/s per GPU at the dips (-1: the capture has no traffic figure there)
 * @param busyTraffic   the same at the other instants (-1: none)
 * @param clockRatio    mean SM clock over its maximum while busy (-1: the capture lacks either)
 * @param clockMhz      that mean SM clock, MHz
 * @param clockMaxMhz   the maximum, MHz
 * @param powerRatio    mean power over the power limit while busy (-1: the capture lacks either)
 * @param clockSpan     a busy sample with its clock (null: none)
 * @param clockOnlyMhz  mean SM clock while busy of samples that give no maximum (-1: none such)
 */
public record Telemetry(int instants, double meanUtil, int dips, Span lowest, double lowestUtil, double dipTraffic,
                        double busyTraffic, double clockRatio, double clockMhz, double clockMaxMhz, double powerRatio, Span clockSpan,
                        double clockOnlyMhz) {

    /** An instant whose GPUs' mean utilisation is below this (percent) is a dip: the GPUs wait. */
    public static final double DIP = 30;
    /** An instant at or above this (percent) is busy: its clocks and power say how fast the GPUs compute. */
    public static final double BUSY = 50;

    /** Nothing sampled. */
    public static final Telemetry NONE = new Telemetry(0, -1, 0, null, -1, -1, -1, -1, -1, -1, -1, null, -1);

    /** The samples of every capture given, each GPU identified by its file, host and index. */
    public static Telemetry of(List<Evidence.GpuSamples> captures) {
        // instant key: file + time (or, without times, the sample's ordinal for its GPU)
        TreeMap<String, List<Evidence.GpuSample>> byInstant = new TreeMap<>();
        Map<String, Evidence.GpuSample> previous = new HashMap<>();
        Map<Evidence.GpuSample, Double> traffic = new HashMap<>();
        int order = 0;
        for (Evidence.GpuSamples c : captures) {
            Map<String, Integer> ordinal = new HashMap<>();
            order++;
            for (Evidence.GpuSample s : c.samples()) {
                String gpu = c.file() + "|" + s.host() + "|" + s.gpu();
                int k = ordinal.merge(gpu, 1, Integer::sum);
                String when = s.seconds() >= 0 ? String.format(java.util.Locale.ROOT, "%015.3f", s.seconds()) : String.format(java.util.Locale.ROOT, "%09d", k);
                byInstant.computeIfAbsent(String.format(java.util.Locale.ROOT, "%04d|%s", order, when), x -> new ArrayList<>()).add(s);
                double t = rate(s);
                Evidence.GpuSample p = previous.put(gpu, s);
                if (p != null && s.seconds() > p.seconds() && p.seconds() >= 0) {
                    double dt = s.seconds() - p.seconds();
                    for (String key : List.of("nvlink_tx_bytes_total", "pcie_tx_bytes_total", "pcie_rx_bytes_total")) {
                        Double a = p.values().get(key), b = s.values().get(key);
                        if (a != null && b != null && b >= a) t = Math.max(t, 0) + (b - a) / dt;
                    }
                }
                if (t >= 0) traffic.put(s, t);
            }
        }
        int instants = 0, dips = 0;
        double utilSum = 0;
        int utilCount = 0;
        Span lowest = null;
        double lowestUtil = Double.MAX_VALUE;
        double dipT = 0, busyT = 0;
        int dipN = 0, busyN = 0;
        double clk = 0, clkMax = 0, pw = 0, pwMax = 0, clkOnly = 0;
        int clkN = 0, pwN = 0, clkOnlyN = 0;
        Span clockSpan = null;
        for (List<Evidence.GpuSample> at : byInstant.values()) {
            double sum = 0;
            int n = 0;
            for (Evidence.GpuSample s : at) {
                double u = util(s);
                if (u >= 0) { sum += u; n++; }
            }
            if (n == 0) continue;
            instants++;
            double mean = sum / n;
            utilSum += sum;
            utilCount += n;
            if (mean < lowestUtil) { lowestUtil = mean; lowest = at.get(0).span(); }
            boolean dip = mean < DIP;
            if (dip) dips++;
            for (Evidence.GpuSample s : at) {
                Double t = traffic.get(s);
                if (t != null) {
                    if (dip) { dipT += t; dipN++; } else { busyT += t; busyN++; }
                }
                if (mean >= BUSY && util(s) >= BUSY) {
                    Double c = s.values().get("sm_clock_mhz"), cm = s.values().get("sm_clock_max_mhz");
                    if (c != null && cm != null && cm > 0) {
                        clk += c; clkMax += cm; clkN++;
                        if (clockSpan == null) clockSpan = s.span();
                    } else if (c != null) {
                        clkOnly += c; clkOnlyN++;
                    }
                    Double p = s.values().get("power_w"), pl = s.values().get("power_limit_w");
                    if (p != null && pl != null && pl > 0) { pw += p; pwMax += pl; pwN++; }
                }
            }
        }
        if (instants == 0) return NONE;
        return new Telemetry(instants, utilSum / utilCount, dips, lowest, lowestUtil, dipN == 0 ? -1 : dipT / dipN,
                busyN == 0 ? -1 : busyT / busyN, clkN == 0 ? -1 : clk / clkMax, clkN == 0 ? -1 : clk / clkN,
                clkN == 0 ? -1 : clkMax / clkN, pwN == 0 ? -1 : pw / pwMax, clockSpan, clkOnlyN == 0 ? -1 : clkOnly / clkOnlyN);
    }

    /** Utilisation in percent: the GPU's (nvidia-smi, DCGM_FI_DEV_GPU_UTIL), else SM activity × 100; -1 without either. */
    static double util(Evidence.GpuSample s) {
        Double u = s.values().get("gpu_util_percent");
        if (u != null) return u;
        Double a = s.values().get("sm_active_fraction");
        return a == null ? -1 : a * 100;
    }

    /**
     * NVLink and PCIe traffic the tool prints as a rate, bytes/s: dmon's PCIe MB/s, and DCGM's profiling fields
     * (DCGM_FI_PROF_NVLINK_TX_BYTES, DCGM_FI_PROF_PCIE_TX/RX_BYTES are rates in bytes per second, per DCGM's field
     * definitions, so they are read as rates); -1 without one.
     */
    private static double rate(Evidence.GpuSample s) {
        double t = -1;
        for (String key : List.of("pcie_rx_mb_per_s", "pcie_tx_mb_per_s")) {
            Double v = s.values().get(key);
            if (v != null) t = Math.max(t, 0) + v * 1e6;
        }
        for (String key : List.of("nvlink_tx_bytes_per_s", "pcie_tx_bytes_per_s", "pcie_rx_bytes_per_s")) {
            Double v = s.values().get(key);
            if (v != null) t = Math.max(t, 0) + v;
        }
        return t;
    }

    /** The dips' share of the instants. */
    public double dipShare() { return instants == 0 ? 0 : (double) dips / instants; }

    /**
     * The GPUs' links were idle while utilisation dipped: at the dips the NVLink and PCIe traffic is under a tenth of
     * the busy instants'. False when the capture does not show traffic at both.
     */
    public boolean idleAtDips() { return dipTraffic >= 0 && busyTraffic > 0 && dipTraffic < 0.1 * busyTraffic; }

    /** The capture shows traffic at the dips and at the busy instants. */
    public boolean trafficKnown() { return dipTraffic >= 0 && busyTraffic >= 0; }
}
