package dev.gpulint.spec;

import dev.gpulint.core.Span;

/** Which cluster (and node group) a job of another format runs on, as configuration {@code job_clusters} says for its file. */
public record JobPlacement(String cluster, String nodeGroup, Span at) {}
