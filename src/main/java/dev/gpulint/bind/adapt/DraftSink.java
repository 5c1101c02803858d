package dev.gpulint.bind.adapt;

import dev.gpulint.spec.ModelSink;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link ModelSink} an adapter writes one file's documents into. Counters, metric queries, NIC policies,
 * fabrics and findings go in as they are; a job goes in as a {@link JobDraft}, because the run still works on it
 * across files ({@link Adapters#bind}: a launch script joined with the configuration it names, a DeepSpeed
 * configuration's triple, the schema's bounds) before it becomes a {@code Specs.Job}.
 */
final class DraftSink extends ModelSink {
    private final List<JobDraft> drafts = new ArrayList<>();
    private final java.util.Map<String, dev.gpulint.catalog.Models.Entry> modelConfigs = new java.util.LinkedHashMap<>();

    /** A job being bound. */
    void draft(JobDraft j) { drafts.add(j); }

    /** The drafts written, in order. */
    List<JobDraft> drafts() { return drafts; }

    /** A model configuration (a Hugging Face config.json) of {@code file}: the shape of the model its folder holds. */
    void modelConfig(String file, dev.gpulint.catalog.Models.Entry shape) { modelConfigs.put(file, shape); }

    private final java.util.Map<String, dev.gpulint.catalog.Models.Hybrid> hybridConfigs = new java.util.LinkedHashMap<>();

    /** A model configuration's hybrid layer kinds (a NemotronH config.json), by file. */
    void hybridConfig(String file, dev.gpulint.catalog.Models.Hybrid h) { hybridConfigs.put(file, h); }

    /** The hybrid layer kinds of the model configurations written, by file. */
    java.util.Map<String, dev.gpulint.catalog.Models.Hybrid> hybridConfigs() { return hybridConfigs; }

    /** The model configurations written, by file. */
    java.util.Map<String, dev.gpulint.catalog.Models.Entry> modelConfigs() { return modelConfigs; }

    private final java.util.Map<String, java.util.Set<String>> refusedConfigs = new java.util.LinkedHashMap<>();

    /** A model configuration of {@code file} that writes sizes out of bounds ({@code unknown}: their manifest paths,
     *  "model.vocab_size"; SYN002 at each): it gives no shape, and a job that names it takes those sizes as unknown. */
    void refusedConfig(String file, java.util.Set<String> unknown) { refusedConfigs.put(file, unknown); }

    /** The refused model configurations, by file. */
    java.util.Map<String, java.util.Set<String>> refusedConfigs() { return refusedConfigs; }

    @Override public boolean bindsNothing() {
        return drafts.isEmpty() && modelConfigs.isEmpty() && refusedConfigs.isEmpty() && super.bindsNothing();
    }
}
