package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * A job that turns on older Megatron-Core's DeepEP switch ({@code --moe-enable-deepep}, Megatron-Bridge's and NeMo 2's
 * {@code moe_enable_deepep: true}) where Megatron-Core's TransformerConfig raises ValueError before the model is built:
 * with a token dispatcher other than flex ("DeepEP backend is only supported with flex token dispatcher."; Megatron-Core's
 * default dispatcher is allgather), or beside a written hybridep (or, in the versions that have it, deepepv2) backend
 * ("Only one backend is supported for flex token dispatcher."; transformer_config.py at Megatron-LM 00caa53a, and with
 * deepepv2 at 002526d8). PAR021.
 */
public final class DeepepSwitchFact {
    private final String jobName, file, key, dispatcher, dispatcherKey, backend;
    private final Span span;

    /**
     * @param key           the switch as the file writes it ("--moe-enable-deepep", "model.moe_enable_deepep")
     * @param dispatcher    the dispatcher as written, or null when none is (Megatron-Core's default allgather)
     * @param dispatcherKey where the dispatcher is written, or null (none written, or the format's default)
     * @param backend       the flex backend written beside the switch when Megatron-Core refuses the pair (hybridep, deepepv2), else null
     * @param span          where the switch is written
     */
    public DeepepSwitchFact(String jobName, String file, String key, String dispatcher, String dispatcherKey, String backend,
                            Span span) {
        this.jobName = jobName; this.file = file; this.key = key; this.dispatcher = dispatcher;
        this.dispatcherKey = dispatcherKey; this.backend = backend; this.span = span;
    }

    /** The job's name. */
    public String getJobName() { return jobName; }
    /** The file the job is declared in. */
    public String getFile() { return file; }
    /** The switch's key as the file writes it. */
    public String getKey() { return key; }
    /** The token dispatcher as written, or "allgather" (Megatron-Core's default) when none is. */
    public String getDispatcher() { return dispatcher == null ? "allgather" : dispatcher; }
    /** Whether the job writes its dispatcher (else the format's default, Megatron-Core's allgather, stands). */
    public boolean isDispatcherWritten() { return dispatcher != null && dispatcherKey != null; }
    /** Where the dispatcher is written, as the file names it, or "" when it is not. */
    public String getDispatcherKey() { return dispatcherKey == null ? "" : dispatcherKey; }
    /** Whether the dispatcher is the flex one (then the refusal is the backend's pair). */
    public boolean isFlex() { return dispatcher != null && (dispatcher.equalsIgnoreCase("flex") || dispatcher.equalsIgnoreCase("deepep")); }
    /** The other flex backend written beside the switch, or "" when none is. */
    public String getBackend() { return backend == null ? "" : backend; }
    /** Where the switch is written. */
    public Span getSpan() { return span; }

    public String identity() { return "training_job:" + jobName + "/moe_enable_deepep"; }
}
