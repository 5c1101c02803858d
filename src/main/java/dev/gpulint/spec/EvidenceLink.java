package dev.gpulint.spec;

import dev.gpulint.core.Span;

/**
 * What a captured tool output belongs to, as configuration {@code evidence} says for its file:
 * a cluster (and node group), or a job (whose cluster and node group it then takes). {@code at}
 * is where the configuration names it; the name that is set is not null.
 */
public record EvidenceLink(String cluster, String nodeGroup, String job, Span at) {}
