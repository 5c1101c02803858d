package dev.gpulint.tree;

import dev.gpulint.core.Span;

import java.util.List;

public record ListNode(List<Node> items, Span span) implements Node {
    public ListNode { items = List.copyOf(items); }
    @Override public String describe() { return "a list"; }
}
