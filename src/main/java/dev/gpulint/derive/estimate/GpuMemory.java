package dev.gpulint.derive.estimate;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Span;
import dev.gpulint.derive.Resolved;
import dev.gpulint.facts.HwUnits;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The memory of one GPU of a node group, as MEM001–MEM003 and `gpulint plan` hold a job to: the node group's declared
 * {@code gpu.memory} when it has one, else the catalog's figure for its model. A declared figure that matches a
 * variant of the model (80 GB on an H100 SXM: its 80 GiB, the datasheet's "GB" of HBM being GiB) is that variant's
 * bytes; one that matches none (a 96 GB H100 the catalog does not list) is taken as written, and HW004 says it
 * differs from the catalog: a GPU the user says is bigger is not judged out of memory at the catalog's size.
 *
 * @param bytes        the capacity
 * @param declared     it is the node group's gpu.memory
 * @param catalogBytes the catalog's figure for the model, 0 when the model is not in the catalog
 * @param gpu          the catalog name, null when the model is not in the catalog
 * @param span         where the capacity is stated: gpu.memory, or gpu.model; null when neither is written
 */
public record GpuMemory(double bytes, boolean declared, double catalogBytes, String gpu, Span span) {

    /** Declared bytes different from the catalog's figure by more than HW004's tolerance. */
    public boolean overridesCatalog() {
        return declared && catalogBytes > 0 && !HwUnits.within(bytes, catalogBytes, Resolved.Group.MEMORY_TOLERANCE);
    }

    /** A node group's GPU memory; empty when it declares none and its model is not in the catalog. */
    public static Optional<GpuMemory> of(Resolved.Group g) {
        if (g == null) return Optional.empty();
        Catalog.Gpu gpu = g.gpu();
        String name = gpu == null ? null : gpu.name();
        double catalog = gpu == null ? 0 : gpu.memoryBytes();
        if (g.memoryDeclared() && g.memoryBytes() > 0) {
            double bytes = g.memoryBytes();
            if (gpu != null && g.memoryMatches()) bytes = variant(gpu, g.memoryBytes());
            return Optional.of(new GpuMemory(bytes, true, catalog, name, g.spec().gpu().memory().span()));
        }
        if (gpu == null) return Optional.empty();
        Span at = g.spec().gpu() == null || g.spec().gpu().model() == null ? null : g.spec().gpu().model().span();
        return Optional.of(new GpuMemory(catalog, false, catalog, name, at));
    }

    /** The catalog variant whose reading (its bytes, or its GiB figure as GB) is nearest the declared bytes. */
    static double variant(Catalog.Gpu gpu, double declared) {
        List<Double> variants = new ArrayList<>();
        variants.add(gpu.memoryBytes());
        variants.addAll(gpu.alternateMemoryBytes());
        double best = gpu.memoryBytes(), distance = Double.POSITIVE_INFINITY;
        for (double v : variants) {
            for (double reading : new double[] {v, v / (1L << 30) * 1e9}) {
                double d = Math.abs(declared / reading - 1);
                if (d < distance) { distance = d; best = v; }
            }
        }
        return best;
    }
}
