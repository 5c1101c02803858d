package dev.gpulint.tree;

/** A node of the document tree both front ends build: mapping, list or scalar. */
public sealed interface Node permits MappingNode, ListNode, ScalarNode {
    Span span();

    /** A short name for messages: "a mapping", "a list", "a value". */
    String describe();
}
