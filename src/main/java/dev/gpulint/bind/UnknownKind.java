package dev.gpulint.bind;

import dev.gpulint.core.DidYouMean;
import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import dev.gpulint.tree.Document;
import dev.gpulint.tree.Node;

/** SYN002 for a document the binder has no schema for: its kind is unknown or missing. */
final class UnknownKind {
    private UnknownKind() {}

    /**
     * A DSL block that is neither cluster nor training_job, or a YAML document the reader took for
     * an almost-manifest (a kind one typo away, or a manifest's keys without a kind).
     */
    static Finding finding(Document d, Node kindNode, String kind) {
        if (d.file().endsWith(".topo")) {
            String guess = DidYouMean.closest(kind, dev.gpulint.read.Manifests.KINDS);
            return Finding.of("SYN002", kindNode != null ? kindNode.span() : d.root().span(), "document#" + d.index(),
                    "unknown top-level block '" + kind + "'; a manifest holds cluster and training_job blocks"
                            + (guess != null ? " (did you mean '" + guess + "'?)" : ""));
        }
        String meant = dev.gpulint.read.Manifests.intendedKind(d.root()).orElse("training_job");
        if (kindNode != null) {
            return Finding.of("SYN002", kindNode.span(), "document#" + d.index() + "/kind", "unknown kind '" + kind
                    + "': gpulint reads kind: cluster and kind: training_job, so this file would be skipped; did you mean '" + meant + "'?");
        }
        Span at = d.root().entries().isEmpty() ? d.root().span() : d.root().entries().get(0).key().span();
        String keys = meant.equals("cluster") ? "name and node_groups" : "name and parallelism";
        return Finding.of("SYN002", at, "document#" + d.index() + "/kind", "this document has " + keys + " like a gpulint "
                + meant + " manifest but no kind, so it would be skipped; add kind: " + meant);
    }
}
