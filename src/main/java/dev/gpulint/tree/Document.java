package dev.gpulint.tree;

/**
 * One manifest document: a file may hold several (YAML `---`, several DSL blocks).
 *
 * @param folds the items of its long lists that its reader folded ({@link GroupFolder}); {@link Folds#NONE} when none
 */
public record Document(String file, int index, MappingNode root, Folds folds) {
    public Document(String file, int index, MappingNode root) { this(file, index, root, Folds.NONE); }

    public Document {
        if (folds == null) folds = Folds.NONE;
    }
}
