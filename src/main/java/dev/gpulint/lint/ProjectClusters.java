package dev.gpulint.lint;

import dev.gpulint.core.Finding;
import dev.gpulint.read.Manifests;
import dev.gpulint.read.ReadResult;
import dev.gpulint.read.SourceFile;
import dev.gpulint.tree.Document;
import dev.gpulint.tree.ScalarNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The clusters of the project's own manifests, for jobs whose cluster is among no linted file: a
 * commit that changes only a job, or pre-commit splitting a long file list over several runs, must not
 * make the job's cluster "undefined" (SYN003). Asked only when some reference is unresolved, it walks
 * the project root as a folder given on the command line is walked (the same readable extensions,
 * depth, skipped folders and configuration {@code exclude}), reads the files not already in the run,
 * parses only those whose text names a wanted cluster, and returns only the cluster documents with
 * those names (the first definition of each, in path order). A project with more than
 * {@link #MAX_FILES} readable files is not searched at all (the result would depend on where the walk
 * stopped; list the cluster inventories in {@code include:} instead). Nothing it meets is reported:
 * unreadable files, parse errors and the clusters' own findings stay out of the run.
 */
final class ProjectClusters implements Function<Set<String>, List<Document>> {

    /** A project with more readable files than this is not searched. */
    static final int MAX_FILES = 50_000;

    private final Discovery discovery;
    private final Path root;
    private final ClusterIndex index;
    private int read;

    ProjectClusters(Discovery discovery, Path root) {
        this(discovery, root, null);
    }

    /** @param index what earlier runs learnt of the root's clusters (the language server's), or null to walk afresh */
    ProjectClusters(Discovery discovery, Path root, ClusterIndex index) {
        this.discovery = discovery;
        this.root = root;
        this.index = index;
    }

    /** How many files the last lookups read (tests). */
    int filesRead() { return read; }

    @Override
    public List<Document> apply(Set<String> names) {
        Set<String> wanted = new LinkedHashSet<>(names);
        List<Document> out = new ArrayList<>();
        List<Finding> ignored = new ArrayList<>();
        Set<Path> inRun = Set.copyOf(discovery.seen());
        if (index == null) {
            List<Path> files = discovery.walk(root, root, root.toString(), ignored, MAX_FILES);
            if (files == null) return out;
            for (Path f : files) {
                if (wanted.isEmpty()) break;
                if (!inRun.contains(Discovery.key(f))) take(f, wanted, out, null, ignored);
            }
            return out;
        }
        ClusterIndex.Index ix = index.of(root, () -> build(ignored));
        if (ix.files() == null) return out;
        for (Path f : ix.files()) {
            if (wanted.isEmpty()) break;
            if (inRun.contains(Discovery.key(f))) continue;
            if (ix.stale().remove(f)) {
                // changed on the disk since it was indexed: read again, whether it names a wanted cluster now or not
                List<String> defined = new ArrayList<>();
                take(f, new LinkedHashSet<>(), new ArrayList<>(), defined, ignored);
                ix.names().put(f, List.copyOf(defined));
            }
            // an open document's buffer may define what its file does not: read it afresh
            if (discovery.overlaid(f) || ix.names().getOrDefault(f, List.of()).stream().anyMatch(wanted::contains)) {
                take(f, wanted, out, null, ignored);
            }
        }
        return out;
    }

    /** The root's files and the clusters each defines, read once for the index. */
    private ClusterIndex.Index build(List<Finding> ignored) {
        List<Path> files = discovery.walk(root, root, root.toString(), ignored, MAX_FILES);
        java.util.Map<Path, List<String>> names = new java.util.concurrent.ConcurrentHashMap<>();
        if (files != null) {
            for (Path f : files) {
                List<String> defined = new ArrayList<>();
                take(f, new LinkedHashSet<>(), new ArrayList<>(), defined, ignored);
                if (!defined.isEmpty()) names.put(f, List.copyOf(defined));
            }
        }
        return new ClusterIndex.Index(files == null ? null : List.copyOf(files), names, java.util.concurrent.ConcurrentHashMap.newKeySet());
    }

    /**
     * Reads {@code f}: each cluster it defines whose name is wanted goes to {@code out} (and is wanted no more); with
     * {@code defined}, every cluster name it defines goes there (indexing).
     */
    private void take(Path f, Set<String> wanted, List<Document> out, List<String> defined, List<Finding> ignored) {
        read++;
        if (index != null) index.read();
        Optional<SourceFile> file = discovery.load(f, discovery.display(f), ignored);
        if (file.isEmpty()) return;
        String text = file.get().text();
        if (defined == null ? wanted.stream().noneMatch(text::contains) : !text.contains("cluster")) return;
        ReadResult r = Contained.read(file.get());
        for (Document d : r.documents()) {
            if (!Manifests.isNative(d.root()) || !"cluster".equals(text(d, "kind"))) continue;
            String name = text(d, "name");
            if (name == null) continue;
            if (defined != null) defined.add(name);
            if (wanted.remove(name)) out.add(d);
        }
    }

    private static String text(Document d, String key) {
        return d.root().get(key).filter(n -> n instanceof ScalarNode).map(n -> ((ScalarNode) n).text()).orElse(null);
    }
}
