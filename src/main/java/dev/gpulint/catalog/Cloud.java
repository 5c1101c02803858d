package dev.gpulint.catalog;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How clouds and their launchers name GPUs (the {@code cloud:} section of the catalog): SkyPilot's accelerator
 * names, and the instance types whose GPUs are fixed, by the catalog's GPU names.
 */
public final class Cloud {

    /** An instance type's GPUs: the catalog's model and how many. */
    public record Instance(String gpu, long count) {}

    private final Map<String, String> accelerators = new HashMap<>();
    private final Map<String, Instance> instances = new HashMap<>();

    @SuppressWarnings("unchecked")
    Cloud(Map<String, Object> section) {
        if (section == null) return;
        ((Map<String, Object>) section.getOrDefault("accelerators", Map.of())).forEach((k, v) -> accelerators.put(k, (String) v));
        for (Map<String, Object> i : (List<Map<String, Object>>) section.getOrDefault("instances", List.of())) {
            instances.put((String) i.get("name"), new Instance((String) i.get("gpu"), ((Number) i.get("count")).longValue()));
        }
    }

    /** The catalog's name of a SkyPilot accelerator name as written (H100, A100-80GB); empty when it has none. */
    public Optional<String> accelerator(String name) { return Optional.ofNullable(accelerators.get(name)); }

    /** The GPUs of an instance type (p5.48xlarge, a3-highgpu-8g), by its exact name; empty when not known. */
    public Optional<Instance> instance(String type) { return Optional.ofNullable(instances.get(type)); }
}
