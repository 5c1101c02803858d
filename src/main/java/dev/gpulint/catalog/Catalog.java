package dev.gpulint.catalog;

import dev.gpulint.core.Lazy;
import dev.gpulint.spec.Quantities;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The hardware catalog (resource catalog/hardware.yaml): GPUs, NVLink and PCIe
 * generations, InfiniBand and Ethernet port speeds, NICs, each with its
 * source. Bandwidths are kept in bytes per second with their convention in the
 * field name: NVLink and PCIe "bidirectional" aggregates, ports per direction.
 */
public final class Catalog {

    public enum Form { SXM, PCIE, SUPERCHIP, OAM }

    /**
     * What joins a platform's GPUs to each other (catalog field {@code scale_up}): NVLink (any GPU with
     * an NVLink generation), AMD Infinity Fabric (xGMI links between the GPUs of one platform), or
     * nothing but PCIe.
     */
    public enum ScaleUp { NVLINK, INFINITY_FABRIC, NONE }

    public record Gpu(String name, String family, Form form, double memoryBytes, List<Double> alternateMemoryBytes,
                      double hbmBytesPerSecond, int nvlinkGeneration, double nvlinkBidirectional, boolean nvswitch,
                      int bridgeMax, int rackDomain, int pcieGeneration, String source, ScaleUp scaleUp,
                      int scaleUpDomain, double scaleUpBidirectional, String computeCapability, String rocmCapability) {
        /**
         * The CUDA compute capability's major version (10 for B200 / GB200 10.0 and B300 / GB300 10.3, 9 for Hopper), or -1
         * when the catalog has none (AMD Instinct, a project's entry that writes none).
         */
        public int computeCapabilityMajor() {
            return major(computeCapability);
        }

        /**
         * The major version PyTorch on ROCm reports for an AMD GPU as torch.cuda.get_device_capability() (HIP's device
         * properties, from the gfx architecture: 9 for gfx90a, gfx942 and gfx950; catalog {@code rocm_capability}), or -1
         * when the catalog has none (every NVIDIA GPU, a project's entry that writes none). Not a CUDA compute capability:
         * MI250X's 9.0 is no Hopper.
         */
        public int rocmCapabilityMajor() {
            return major(rocmCapability);
        }

        private static int major(String capability) {
            if (capability == null) return -1;
            int dot = capability.indexOf('.');
            try {
                return Integer.parseInt((dot < 0 ? capability : capability.substring(0, dot)).strip());
            } catch (NumberFormatException e) {
                return -1;
            }
        }
        public boolean hasNvlink() { return nvlinkGeneration > 0; }
        /** GPUs joined all-to-all by AMD's Infinity Fabric (xGMI) on one platform, not by NVLink or PCIe. */
        public boolean infinityFabric() { return scaleUp == ScaleUp.INFINITY_FABRIC; }
        public boolean bridged() { return form == Form.PCIE && bridgeMax > 0; }
    }

    public record Nvlink(int generation, int links, double perLinkBidirectional, double perGpuBidirectional, String source) {}

    public record Pcie(int generation, double perDirection, double bidirectional, String source) {}

    /** A port speed of a link technology, per direction, in bytes per second. */
    public record LinkSpeed(String technology, String name, double bytesPerSecond) {
        public double gbps() { return bytesPerSecond * 8 / 1e9; }
    }

    public record Nic(String name, List<String> protocols, double maxInfiniband, double maxEthernet, String source) {}

    private final Map<String, Gpu> gpusByKey = new HashMap<>();
    private final List<Gpu> gpus = new ArrayList<>();
    private final Map<Integer, Nvlink> nvlink = new LinkedHashMap<>();
    private final Map<Integer, Pcie> pcie = new LinkedHashMap<>();
    private final Map<String, List<LinkSpeed>> links = new LinkedHashMap<>();
    private final Map<String, Nic> nicsByKey = new HashMap<>();
    private Compute compute = new Compute(null);
    private Cloud cloud = new Cloud(null);

    private static final Lazy<Catalog> BUILT_IN = new Lazy<>(() -> load("catalog/hardware.yaml"));

    public static Catalog builtIn() { return BUILT_IN.get(); }

    @SuppressWarnings("unchecked")
    static Catalog load(String resource) {
        try (InputStream in = Catalog.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("missing resource " + resource);
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Map<String, Object> root = (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(text);
            Catalog c = new Catalog();
            for (Map<String, Object> g : (List<Map<String, Object>>) root.get("gpus")) c.addGpu(g);
            for (Map<String, Object> n : (List<Map<String, Object>>) root.get("nvlink")) {
                int gen = ((Number) n.get("generation")).intValue();
                c.nvlink.put(gen, new Nvlink(gen, ((Number) n.get("links")).intValue(), bw(n.get("per_link")),
                        bw(n.get("per_gpu")), (String) n.get("source")));
            }
            for (Map<String, Object> p : (List<Map<String, Object>>) root.get("pcie")) {
                int gen = ((Number) p.get("generation")).intValue();
                c.pcie.put(gen, new Pcie(gen, bw(p.get("per_direction")), bw(p.get("bidirectional")), (String) p.get("source")));
            }
            Map<String, Object> l = (Map<String, Object>) root.get("links");
            for (Map.Entry<String, Object> tech : l.entrySet()) {
                List<LinkSpeed> speeds = new ArrayList<>();
                for (Map<String, Object> s : (List<Map<String, Object>>) tech.getValue()) {
                    speeds.add(new LinkSpeed(tech.getKey(), (String) s.get("name"), bw(s.get("speed"))));
                }
                c.links.put(tech.getKey(), List.copyOf(speeds));
            }
            for (Map<String, Object> n : (List<Map<String, Object>>) root.get("nics")) c.addNic(n);
            c.compute = new Compute((Map<String, Object>) root.get("compute"));
            c.cloud = new Cloud((Map<String, Object>) root.get("cloud"));
            return c;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private void addGpu(Map<String, Object> g) {
        List<Double> alt = new ArrayList<>();
        for (Object o : (List<Object>) g.getOrDefault("alternate_memory", List.of())) alt.add(size(o));
        int gen = ((Number) g.get("nvlink_generation")).intValue();
        Gpu gpu = new Gpu((String) g.get("name"), (String) g.get("family"),
                Form.valueOf(((String) g.get("form")).toUpperCase(Locale.ROOT)), size(g.get("memory")), List.copyOf(alt),
                bw(g.get("hbm_bandwidth")), gen,
                g.containsKey("nvlink_bandwidth") ? bw(g.get("nvlink_bandwidth")) : 0,
                Boolean.TRUE.equals(g.get("nvswitch")),
                g.containsKey("bridge_max") ? ((Number) g.get("bridge_max")).intValue() : 0,
                g.containsKey("rack_domain") ? ((Number) g.get("rack_domain")).intValue() : 0,
                g.containsKey("pcie_generation") ? ((Number) g.get("pcie_generation")).intValue() : 0,
                String.valueOf(g.get("source")), scaleUp(g, gen),
                g.containsKey("scale_up_domain") ? ((Number) g.get("scale_up_domain")).intValue() : 0,
                g.containsKey("scale_up_bandwidth") ? bw(g.get("scale_up_bandwidth")) : 0,
                g.get("compute_capability") == null ? null : String.valueOf(g.get("compute_capability")).strip(),
                g.get("rocm_capability") == null ? null : String.valueOf(g.get("rocm_capability")).strip());
        gpus.add(gpu);
        gpusByKey.put(key(gpu.name()), gpu);
        for (String a : (List<String>) g.getOrDefault("aliases", List.of())) gpusByKey.put(key(a), gpu);
    }

    /**
     * This catalog with a project's additions (the `catalog:` of .gpulint.yaml: `gpus:` and `nics:`
     * entries of the built-in shape, each with a source). An entry of the same name replaces the
     * built-in one.
     *
     * @throws IllegalArgumentException naming the entry that is malformed
     */
    @SuppressWarnings("unchecked")
    public Catalog with(Map<String, Object> additions) {
        Catalog c = new Catalog();
        c.gpus.addAll(gpus);
        c.gpusByKey.putAll(gpusByKey);
        c.nvlink.putAll(nvlink);
        c.pcie.putAll(pcie);
        c.links.putAll(links);
        c.nicsByKey.putAll(nicsByKey);
        c.compute = compute;
        c.cloud = cloud;
        for (Object o : (List<Object>) additions.getOrDefault("gpus", List.of())) {
            Map<String, Object> g = new LinkedHashMap<>((Map<String, Object>) o);
            for (String k : List.of("name", "family", "form", "memory", "nvlink_generation", "source")) {
                if (!g.containsKey(k)) throw new IllegalArgumentException("catalog GPU " + g.getOrDefault("name", "?") + " lacks '" + k + "'");
            }
            positive("GPU", g, "memory", true);
            positive("GPU", g, "hbm_bandwidth", false);
            positive("GPU", g, "nvlink_bandwidth", false);
            for (Object m : (List<Object>) g.getOrDefault("alternate_memory", List.of())) {
                if (size(m) <= 0) throw new IllegalArgumentException("catalog GPU " + g.get("name") + ": alternate_memory " + m + " must be positive");
            }
            g.putIfAbsent("hbm_bandwidth", "0 GB/s");   // no rule reads it yet
            String replaced = key(String.valueOf(g.get("name")));
            c.gpus.removeIf(x -> key(x.name()).equals(replaced));
            try {
                c.addGpu(g);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("catalog GPU " + g.get("name") + ": " + e.getMessage());
            }
        }
        for (Object o : (List<Object>) additions.getOrDefault("nics", List.of())) {
            Map<String, Object> n = (Map<String, Object>) o;
            for (String k : List.of("name", "protocols", "source")) {
                if (!n.containsKey(k)) throw new IllegalArgumentException("catalog NIC " + n.getOrDefault("name", "?") + " lacks '" + k + "'");
            }
            positive("NIC", n, "max_infiniband", false);
            positive("NIC", n, "max_ethernet", false);
            c.addNic(n);
        }
        return c;
    }

    /** A project's size or bandwidth must be a positive, finite figure: -80 GiB is a mistake, not a GPU. */
    private static void positive(String what, Map<String, Object> entry, String key, boolean isSize) {
        if (!entry.containsKey(key)) return;
        Object v = entry.get(key);
        double x;
        try {
            x = isSize ? size(v) : bw(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("catalog " + what + " " + entry.get("name") + ": " + e.getMessage());
        }
        if (!(x > 0) || !Double.isFinite(x)) {
            throw new IllegalArgumentException("catalog " + what + " " + entry.get("name") + ": " + key + " " + v + " must be positive");
        }
    }

    /** scale_up as written (nvlink, infinity-fabric, none); by default NVLink when the GPU has a generation of it. */
    private static ScaleUp scaleUp(Map<String, Object> g, int nvlinkGeneration) {
        Object s = g.get("scale_up");
        if (s == null) return nvlinkGeneration > 0 ? ScaleUp.NVLINK : ScaleUp.NONE;
        return ScaleUp.valueOf(String.valueOf(s).toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    @SuppressWarnings("unchecked")
    private void addNic(Map<String, Object> n) {
        Nic nic = new Nic((String) n.get("name"), List.copyOf((List<String>) n.get("protocols")),
                n.containsKey("max_infiniband") ? bw(n.get("max_infiniband")) : 0,
                n.containsKey("max_ethernet") ? bw(n.get("max_ethernet")) : 0, (String) n.get("source"));
        nicsByKey.put(key(nic.name()), nic);
        for (String a : (List<String>) n.getOrDefault("aliases", List.of())) nicsByKey.put(key(a), nic);
    }

    private static double bw(Object o) {
        var p = Quantities.bandwidth(String.valueOf(o));
        if (!p.ok()) throw new IllegalArgumentException("bad bandwidth " + o + ": " + p.problem());
        return p.value().bytesPerSecond();
    }

    private static double size(Object o) {
        var p = Quantities.size(String.valueOf(o));
        if (!p.ok()) throw new IllegalArgumentException("bad size " + o + ": " + p.problem());
        return p.value().bytes();
    }

    /** Lookup key: case-insensitive, without spaces, dashes, underscores and a vendor prefix. */
    static String key(String name) {
        StringBuilder sb = new StringBuilder(name.length());
        for (char c : name.toLowerCase(Locale.ROOT).toCharArray()) if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) sb.append(c);
        String k = sb.toString();
        for (String prefix : List.of("nvidia", "tesla", "amdinstinct", "amd")) {
            if (k.startsWith(prefix) && k.length() > prefix.length()) { k = k.substring(prefix.length()); break; }
        }
        return k;
    }

    public Optional<Gpu> gpu(String name) { return Optional.ofNullable(gpusByKey.get(key(name))); }

    public List<Gpu> gpus() { return List.copyOf(gpus); }

    /** Dense peaks and the estimate's efficiencies (the {@code compute:} section). */
    public Compute compute() { return compute; }

    /** Cloud names of GPUs: SkyPilot accelerators and instance types (the {@code cloud:} section). */
    public Cloud cloud() { return cloud; }

    public Optional<Nic> nic(String name) { return Optional.ofNullable(nicsByKey.get(key(name))); }

    public Optional<Nvlink> nvlink(int generation) { return Optional.ofNullable(nvlink.get(generation)); }

    /** Every NVLink generation of the catalog, oldest first. */
    public List<Nvlink> nvlinks() { return List.copyOf(nvlink.values()); }

    public Optional<Pcie> pcie(int generation) { return Optional.ofNullable(pcie.get(generation)); }

    /** Port speeds of "infiniband" or "ethernet" (RoCE runs on Ethernet ports). */
    public List<LinkSpeed> linkSpeeds(String protocol) {
        String tech = protocol.equals("infiniband") ? "infiniband" : "ethernet";
        return links.getOrDefault(tech, List.of());
    }

    /** NVLink per-GPU bidirectional bandwidth of a GPU: its own figure (bridged cards) or its generation's. */
    public double nvlinkBidirectional(Gpu g) {
        if (g.nvlinkBidirectional() > 0) return g.nvlinkBidirectional();
        return nvlink(g.nvlinkGeneration()).map(Nvlink::perGpuBidirectional).orElse(0.0);
    }
}
