package dev.gpulint.spec;

import dev.gpulint.core.Span;

/**
 * A bandwidth the binder rejected for its unit (UNIT003: none, or one that does not say bits or bytes per
 * second), kept with its exact place so that, once the node group's parts are resolved against the catalog, the
 * derive stage can tell whether one reading of the number is the catalog figure (derive.unit.UnitlessReadings).
 * It binds as absent, like every invalid value: no rule reasons on it.
 *
 * @param span     where the value is written (the span of UNIT003's finding)
 * @param identity the finding's identity, the value's field path: {@code cluster:c/node_groups[g]/nvlink/bandwidth}
 * @param text     the value as written (without quotes)
 */
public record Unitless(Span span, String identity, String text) {}
