package dev.gpulint.config;

import dev.gpulint.core.DidYouMean;
import dev.gpulint.core.Finding;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import java.nio.file.PathMatcher;
import java.util.List;

/** The configuration's {@code job_clusters} entries, validated like the rest of it (SYN002 at the entry). */
final class JobClusters {
    private JobClusters() {}

    /** job_clusters: a list of { files: GLOB, cluster: NAME, node_group: NAME (optional) }. */
    static void read(MappingNode.Entry e, String display, List<Finding> problems, List<Config.JobCluster> out) {
        if (!(e.value() instanceof dev.gpulint.tree.ListNode l)) {
            problems.add(Finding.of("SYN002", e.value().span(), "config/job_clusters",
                    "'job_clusters' in " + display + " must be a list of { files: GLOB, cluster: NAME, node_group: NAME }"));
            return;
        }
        int i = 0;
        for (dev.gpulint.tree.Node n : l.items()) {
            i++;
            if (!(n instanceof MappingNode m)) {
                problems.add(Finding.of("SYN002", n.span(), "config/job_clusters[" + i + "]",
                        "entry " + i + " of 'job_clusters' in " + display + " must be a mapping { files: GLOB, cluster: NAME }"));
                continue;
            }
            String files = null, cluster = null, group = null;
            Node filesAt = m;
            dev.gpulint.core.Span at = m.span();
            boolean ok = true;
            for (MappingNode.Entry f : m.entries()) {
                String k = f.key().text();
                String v = f.value() instanceof ScalarNode sv && !sv.isNull() ? sv.text() : null;
                switch (k) {
                    case "files" -> { files = v; filesAt = f.value(); }
                    case "cluster" -> { cluster = v; if (f.value() != null) at = f.value().span(); }
                    case "node_group" -> group = v;
                    default -> {
                        String guess = DidYouMean.closest(k, List.of("files", "cluster", "node_group"));
                        problems.add(Finding.of("SYN002", f.key().span(), "config/job_clusters[" + i + "]/" + k,
                                "unknown key '" + k + "' in entry " + i + " of 'job_clusters'"
                                        + (guess != null ? "; did you mean '" + guess + "'?" : "; valid keys: files, cluster, node_group")));
                        ok = false;
                    }
                }
            }
            if (files == null || cluster == null) {
                problems.add(Finding.of("SYN002", m.span(), "config/job_clusters[" + i + "]#missing",
                        "entry " + i + " of 'job_clusters' in " + display + " needs both 'files' (a glob) and 'cluster'"));
                continue;
            }
            PathMatcher matcher = ok ? ConfigInput.glob(files, filesAt, "job_clusters", problems) : null;
            if (matcher != null) out.add(new Config.JobCluster(files, matcher, cluster, group, at));
        }
    }
}
