package dev.gpulint.read;

import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.Set;

/** What makes a document a native gpulint manifest: a top-level {@code kind} of cluster or training_job. */
public final class Manifests {
    public static final Set<String> KINDS = Set.of("cluster", "training_job");

    private Manifests() {}

    public static boolean isNative(MappingNode root) {
        return root.get("kind").filter(n -> n instanceof ScalarNode)
                .map(n -> KINDS.contains(((ScalarNode) n).text())).orElse(false);
    }
}
