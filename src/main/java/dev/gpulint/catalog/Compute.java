package dev.gpulint.catalog;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The catalog's {@code compute:} section: dense tensor peaks per GPU and precision (TFLOP/s, with the datasheet as
 * source) and the achieved efficiencies `gpulint plan` prices a step with, per GPU family (never per model).
 */
public final class Compute {

    /**
     * Dense peaks of one GPU: precision ({@link #PRECISIONS}) to FLOP/s.
     *
     * @param clockMhz the SM clock the datasheet's peaks are computed at (SMs × FLOP per clock × clock), 0 when the
     *                 vendor does not state it: a declared clock limit scales the peaks by limit ÷ this clock
     * @param tdpWatts the GPU's maximum TDP (board power) as the datasheet states it, 0 when unknown
     */
    public record Peaks(String gpu, Map<String, Double> flops, double clockMhz, double tdpWatts, String source) {

        /** The peaks with every figure scaled by {@code f} (a clock limit below the peak clock). */
        public Peaks scaled(double f) {
            Map<String, Double> s = new LinkedHashMap<>();
            for (Map.Entry<String, Double> e : flops.entrySet()) s.put(e.getKey(), e.getValue() * f);
            return new Peaks(gpu, Map.copyOf(s), clockMhz * f, tdpWatts, source);
        }
    }

    /**
     * The names of the efficiencies the compute section states per GPU family, as the catalog and .gpulint.yaml's
     * {@code plan:} write them (derive.estimate.Efficiency holds one value of each).
     */
    public static final List<String> EFFICIENCIES = List.of("gemm", "gemm_fp8", "gemm_kernel_s", "expert_gemm_s", "expert_gemm_fp8_s", "attention", "hbm",
            "traffic", "layer_s", "nvlink", "pcie", "network", "tcp", "dp_overlap", "tp_overlap", "pp_overlap", "cp_overlap");

    /**
     * Efficiencies a family may state for its block-scaled GEMM paths (MXFP8, NVFP4), as fractions of that path's dense
     * peak; a family without one runs the path at {@code gemm_fp8}. Optional, unlike {@link #EFFICIENCIES}.
     */
    public static final List<String> BLOCK_SCALED_EFFICIENCIES = List.of("gemm_mxfp8", "gemm_nvfp4");

    /** The efficiencies of a set of GPU families, by name ({@link #EFFICIENCIES}). */
    public record Efficiencies(List<String> families, Map<String, Double> values, String source) {}

    /**
     * Precisions a peak may be given for: fp8 (per-tensor or per-block scaled e4m3/e5m2, Hopper's path), the OCP
     * microscaling formats mxfp8, mxfp6 ({@code fp6}) and mxfp4, and NVIDIA's nvfp4 (Blackwell; AMD CDNA 4 has the MX ones).
     */
    public static final List<String> PRECISIONS = List.of("fp32", "tf32", "bf16", "fp16", "fp8", "mxfp8", "fp6", "nvfp4", "mxfp4");

    private final Map<String, Peaks> peaks = new LinkedHashMap<>();
    private final List<Efficiencies> efficiencies;

    @SuppressWarnings("unchecked")
    Compute(Map<String, Object> section) {
        if (section == null) {
            efficiencies = List.of();
            return;
        }
        for (Map<String, Object> p : (List<Map<String, Object>>) section.getOrDefault("peaks", List.of())) {
            Map<String, Double> f = new LinkedHashMap<>();
            for (String k : PRECISIONS) if (p.containsKey(k)) f.put(k, ((Number) p.get(k)).doubleValue() * 1e12);
            String gpu = (String) p.get("gpu");
            double clock = p.get("clock_mhz") instanceof Number n ? n.doubleValue() : 0;
            double tdp = p.get("tdp_w") instanceof Number n ? n.doubleValue() : 0;
            peaks.put(key(gpu), new Peaks(gpu, Map.copyOf(f), clock, tdp, String.valueOf(p.get("source"))));
        }
        List<Efficiencies> e = new java.util.ArrayList<>();
        for (Map<String, Object> x : (List<Map<String, Object>>) section.getOrDefault("efficiencies", List.of())) {
            Map<String, Double> v = new LinkedHashMap<>();
            for (Map.Entry<String, Object> en : x.entrySet()) {
                if (en.getValue() instanceof Number n) v.put(en.getKey(), n.doubleValue());
            }
            e.add(new Efficiencies(List.copyOf((List<String>) x.get("families")), Map.copyOf(v), String.valueOf(x.get("source"))));
        }
        efficiencies = List.copyOf(e);
    }

    /** The dense peaks of a GPU by its catalog name. */
    public Optional<Peaks> peaks(String gpu) { return Optional.ofNullable(peaks.get(key(gpu))); }

    /** The efficiencies of a GPU family. */
    public Optional<Efficiencies> efficiencies(String family) {
        for (Efficiencies e : efficiencies) {
            for (String f : e.families()) if (f.equalsIgnoreCase(family)) return Optional.of(e);
        }
        return Optional.empty();
    }

    private static String key(String s) { return s == null ? "" : s.toLowerCase(Locale.ROOT); }
}
