package dev.gpulint.tree;

import dev.gpulint.core.Span;

import java.util.List;
import java.util.Optional;

/** A mapping in source order; keys are scalars so that each key keeps its own span. */
public record MappingNode(List<Entry> entries, Span span) implements Node {

    public record Entry(ScalarNode key, Node value) {}

    public MappingNode { entries = List.copyOf(entries); }

    @Override public String describe() { return "a mapping"; }

    /** The first entry with this key (duplicates are reported by the binder). */
    public Optional<Entry> entry(String key) {
        for (Entry e : entries) if (e.key().text().equals(key)) return Optional.of(e);
        return Optional.empty();
    }

    public Optional<Node> get(String key) { return entry(key).map(Entry::value); }
}
