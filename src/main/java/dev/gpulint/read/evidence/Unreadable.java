package dev.gpulint.read.evidence;

import dev.gpulint.core.Span;

/** A file of a kind gpulint recognised whose structure is broken or too large: where, and why. */
final class Unreadable extends RuntimeException {
    final transient Span span;

    Unreadable(Span span, String message) {
        super(message, null, false, false);
        this.span = span;
    }
}
