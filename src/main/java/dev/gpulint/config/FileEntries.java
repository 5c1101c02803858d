package dev.gpulint.config;

import dev.gpulint.core.DidYouMean;
import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import dev.gpulint.spec.EvidenceLink;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import java.nio.file.PathMatcher;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The configuration's lists of {@code { files: GLOB, ... }} entries that say what files belong to:
 * {@code job_clusters} (jobs of other formats run on a cluster and node group) and {@code evidence}
 * (captured tool outputs belong to a cluster and node group, or a job; docs/evidence.md). One
 * parser, validated like the rest of the configuration: a wrong shape or key is a SYN002 finding
 * at its place; a glob that does not compile is one at the glob. The lists differ only by their
 * {@link Shape}.
 */
final class FileEntries {
    /**
     * One list's keys and words: its configuration key; an entry's keys besides {@code files};
     * those whose value is what the files belong to (the span a finding about the name points at);
     * which of them an entry needs ({@code complete}, given the entry's values by key); and how the
     * list, an entry and a complete entry read in messages.
     */
    record Shape(String key, List<String> names, List<String> naming, Predicate<Map<String, String>> complete,
                 String listShape, String entryShape, String needs) {}

    /** {@code job_clusters}: { files: GLOB, cluster: NAME, node_group: NAME (optional) }. */
    static final Shape JOB_CLUSTERS = new Shape("job_clusters", List.of("cluster", "node_group"), List.of("cluster"),
            v -> v.get("cluster") != null, "{ files: GLOB, cluster: NAME, node_group: NAME }", "{ files: GLOB, cluster: NAME }",
            "needs both 'files' (a glob) and 'cluster'");

    /** {@code evidence}: { files: GLOB, cluster: NAME, node_group: NAME (optional) } or { files: GLOB, job: NAME }. */
    static final Shape EVIDENCE = new Shape("evidence", List.of("cluster", "node_group", "job"), List.of("cluster", "job"),
            v -> (v.get("cluster") == null) != (v.get("job") == null) && (v.get("job") == null || v.get("node_group") == null),
            "{ files: GLOB, cluster: NAME, node_group: NAME } or { files: GLOB, job: NAME }",
            "{ files: GLOB, cluster: NAME } or { files: GLOB, job: NAME }",
            "needs 'files' (a glob) and either 'cluster' (with an optional 'node_group') or 'job'");

    /** One entry as read: its glob and matcher, its other keys' values (null when not given), and where it names what the files belong to. */
    record Entry(String files, PathMatcher matcher, Map<String, String> values, Span at) {}

    private FileEntries() {}

    static void jobClusters(MappingNode.Entry e, String display, List<Finding> problems, List<Config.JobCluster> out) {
        for (Entry x : read(e, display, problems, JOB_CLUSTERS)) {
            out.add(new Config.JobCluster(x.files(), x.matcher(), x.values().get("cluster"), x.values().get("node_group"), x.at()));
        }
    }

    static void evidence(MappingNode.Entry e, String display, List<Finding> problems, List<Config.EvidenceEntry> out) {
        for (Entry x : read(e, display, problems, EVIDENCE)) {
            out.add(new Config.EvidenceEntry(x.files(), x.matcher(), new EvidenceLink(x.values().get("cluster"),
                    x.values().get("node_group"), x.values().get("job"), x.at())));
        }
    }

    /** The list's entries that are complete and valid; problems for the others. */
    static List<Entry> read(MappingNode.Entry e, String display, List<Finding> problems, Shape shape) {
        String key = shape.key();
        if (!(e.value() instanceof ListNode l)) {
            problems.add(Finding.of("SYN002", e.value().span(), "config/" + key,
                    "'" + key + "' in " + display + " must be a list of " + shape.listShape()));
            return List.of();
        }
        List<String> keys = new java.util.ArrayList<>(List.of("files"));
        keys.addAll(shape.names());
        List<Entry> out = new java.util.ArrayList<>();
        int i = 0;
        for (Node n : l.items()) {
            i++;
            if (!(n instanceof MappingNode m)) {
                problems.add(Finding.of("SYN002", n.span(), "config/" + key + "[" + i + "]",
                        "entry " + i + " of '" + key + "' in " + display + " must be a mapping " + shape.entryShape()));
                continue;
            }
            String files = null;
            Map<String, String> values = new HashMap<>();
            Node filesAt = m;
            Span at = m.span();
            boolean ok = true;
            for (MappingNode.Entry f : m.entries()) {
                String k = f.key().text();
                String v = f.value() instanceof ScalarNode sv && !sv.isNull() ? sv.text() : null;
                if (k.equals("files")) {
                    files = v;
                    filesAt = f.value();
                } else if (shape.names().contains(k)) {
                    values.put(k, v);
                    if (shape.naming().contains(k) && f.value() != null) at = f.value().span();
                } else {
                    String guess = DidYouMean.closest(k, keys);
                    problems.add(Finding.of("SYN002", f.key().span(), "config/" + key + "[" + i + "]/" + k,
                            "unknown key '" + k + "' in entry " + i + " of '" + key + "'"
                                    + (guess != null ? "; did you mean '" + guess + "'?" : "; valid keys: " + String.join(", ", keys))));
                    ok = false;
                }
            }
            if (files == null || !shape.complete().test(values)) {
                problems.add(Finding.of("SYN002", m.span(), "config/" + key + "[" + i + "]#missing",
                        "entry " + i + " of '" + key + "' in " + display + " " + shape.needs()));
                continue;
            }
            PathMatcher matcher = ok ? ConfigInput.glob(files, filesAt, key, problems) : null;
            if (matcher != null) out.add(new Entry(files, matcher, java.util.Collections.unmodifiableMap(values), at));
        }
        return out;
    }
}
