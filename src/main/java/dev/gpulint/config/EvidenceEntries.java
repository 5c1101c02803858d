package dev.gpulint.config;

import dev.gpulint.core.DidYouMean;
import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import java.nio.file.PathMatcher;
import java.util.List;

/**
 * Configuration {@code evidence}: a list of { files: GLOB, cluster: NAME, node_group: NAME } or
 * { files: GLOB, job: NAME }, saying which cluster (node group) or job captured tool outputs
 * belong to (docs/evidence.md). Validated like {@code job_clusters}: a wrong shape or key is a
 * SYN002 finding; a name no linted file defines is EVID001's, at the name.
 */
public final class EvidenceEntries {
    private static final List<String> KEYS = List.of("files", "cluster", "node_group", "job");

    /** One entry: files matching {@code matcher} belong to {@code link}. */
    public record Entry(String files, PathMatcher matcher, dev.gpulint.spec.EvidenceLink link) {}

    private EvidenceEntries() {}

    static void read(MappingNode.Entry e, String display, List<Finding> problems, List<Entry> out) {
        if (!(e.value() instanceof ListNode l)) {
            problems.add(Finding.of("SYN002", e.value().span(), "config/evidence",
                    "'evidence' in " + display + " must be a list of { files: GLOB, cluster: NAME, node_group: NAME } or { files: GLOB, job: NAME }"));
            return;
        }
        int i = 0;
        for (Node n : l.items()) {
            i++;
            if (!(n instanceof MappingNode m)) {
                problems.add(Finding.of("SYN002", n.span(), "config/evidence[" + i + "]",
                        "entry " + i + " of 'evidence' in " + display + " must be a mapping { files: GLOB, cluster: NAME } or { files: GLOB, job: NAME }"));
                continue;
            }
            String files = null, cluster = null, group = null, job = null;
            Node filesAt = m;
            Span at = m.span();
            boolean ok = true;
            for (MappingNode.Entry f : m.entries()) {
                String k = f.key().text();
                String v = f.value() instanceof ScalarNode sv && !sv.isNull() ? sv.text() : null;
                switch (k) {
                    case "files" -> { files = v; filesAt = f.value(); }
                    case "cluster" -> { cluster = v; at = f.value().span(); }
                    case "job" -> { job = v; at = f.value().span(); }
                    case "node_group" -> group = v;
                    default -> {
                        String guess = DidYouMean.closest(k, KEYS);
                        problems.add(Finding.of("SYN002", f.key().span(), "config/evidence[" + i + "]/" + k,
                                "unknown key '" + k + "' in entry " + i + " of 'evidence'"
                                        + (guess != null ? "; did you mean '" + guess + "'?" : "; valid keys: " + String.join(", ", KEYS))));
                        ok = false;
                    }
                }
            }
            if (files == null || (cluster == null) == (job == null) || (job != null && group != null)) {
                problems.add(Finding.of("SYN002", m.span(), "config/evidence[" + i + "]#missing",
                        "entry " + i + " of 'evidence' in " + display + " needs 'files' (a glob) and either 'cluster' (with an "
                                + "optional 'node_group') or 'job'"));
                continue;
            }
            PathMatcher matcher = ok ? ConfigInput.glob(files, filesAt, "evidence", problems) : null;
            if (matcher != null) out.add(new Entry(files, matcher, new dev.gpulint.spec.EvidenceLink(cluster, group, job, at)));
        }
    }
}
