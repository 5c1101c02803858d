package dev.gpulint.tree;

import dev.gpulint.core.Span;

/** A node of the document tree both front ends build: mapping, list or scalar. */
public sealed interface Node permits MappingNode, ListNode, ScalarNode {
    Span span();

    /** A short name for messages: "a mapping", "a list", "a value". */
    String describe();
}
