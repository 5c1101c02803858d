package dev.gpulint.read;

import dev.gpulint.core.DidYouMean;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * What makes a document a native gpulint manifest: a top-level {@code kind} of cluster or
 * training_job. A document that is almost one — a kind one typo away ({@code trainingjob},
 * {@code Training_Job}, {@code clustr}) or no kind beside a manifest's telltale keys (name and
 * node_groups, or name and parallelism) — is read as a manifest too, so the binder reports the
 * kind instead of the file being skipped in silence. Documents with an apiVersion are Kubernetes
 * objects (a Cluster API {@code kind: Cluster}, say), never ours.
 */
public final class Manifests {
    public static final Set<String> KINDS = Set.of("cluster", "training_job");

    private Manifests() {}

    public static boolean isNative(MappingNode root) {
        return root.get("kind").filter(n -> n instanceof ScalarNode)
                .map(n -> KINDS.contains(((ScalarNode) n).text())).orElse(false);
    }

    /** A manifest as written, or one the binder should report (see {@link #intendedKind}). */
    public static boolean isNativeOrNearly(MappingNode root) {
        return isNative(root) || intendedKind(root).isPresent();
    }

    /**
     * The kind a document that is not quite a manifest was meant to have: "training_job" for
     * {@code kind: TrainingJob}, "cluster" for name + node_groups without a kind; empty for a
     * manifest as written and for every other document.
     */
    public static Optional<String> intendedKind(MappingNode root) {
        if (isNative(root) || root.get("apiVersion").isPresent()) return Optional.empty();
        var kind = root.get("kind");
        if (kind.isPresent()) {
            if (!(kind.get() instanceof ScalarNode s) || s.text().length() > 64) return Optional.empty();
            String k = s.text().toLowerCase(Locale.ROOT).replaceAll("[^a-z]", "");
            if (k.equals("cluster")) return Optional.of("cluster");
            if (k.equals("trainingjob")) return Optional.of("training_job");
            return Optional.ofNullable(DidYouMean.closest(s.text().toLowerCase(Locale.ROOT), KINDS));
        }
        if (root.get("name").isEmpty()) return Optional.empty();
        if (root.get("node_groups").isPresent()) return Optional.of("cluster");
        if (root.get("parallelism").isPresent() && (root.get("cluster").isPresent() || root.get("nodes").isPresent())) {
            return Optional.of("training_job");
        }
        return Optional.empty();
    }
}
