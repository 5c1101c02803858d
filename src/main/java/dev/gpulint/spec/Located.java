package dev.gpulint.spec;

import dev.gpulint.core.Span;

/** A bound value with the span of the value in its source file. */
public record Located<T>(T value, Span span) {
    @Override public String toString() { return String.valueOf(value); }
}
