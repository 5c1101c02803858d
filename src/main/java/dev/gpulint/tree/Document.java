package dev.gpulint.tree;

/** One manifest document: a file may hold several (YAML `---`, several DSL blocks). */
public record Document(String file, int index, MappingNode root) {}
