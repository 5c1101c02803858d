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

    /** Dense peaks of one GPU: precision (fp32, tf32, bf16, fp16, fp8) to FLOP/s. */
    public record Peaks(String gpu, Map<String, Double> flops, String source) {}

    /**
     * The names of the efficiencies the compute section states per GPU family, as the catalog and .gpulint.yaml's
     * {@code plan:} write them (derive.estimate.Efficiency holds one value of each).
     */
    public static final List<String> EFFICIENCIES = List.of("gemm", "gemm_fp8", "gemm_kernel_s", "attention", "hbm",
            "traffic", "layer_s", "nvlink", "pcie", "network", "tcp", "dp_overlap", "tp_overlap", "pp_overlap", "cp_overlap");

    /** The efficiencies of a set of GPU families, by name ({@link #EFFICIENCIES}). */
    public record Efficiencies(List<String> families, Map<String, Double> values, String source) {}

    /** Precisions a peak may be given for. */
    public static final List<String> PRECISIONS = List.of("fp32", "tf32", "bf16", "fp16", "fp8");

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
            peaks.put(key(gpu), new Peaks(gpu, Map.copyOf(f), String.valueOf(p.get("source"))));
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
