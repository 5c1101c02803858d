package dev.gpulint.lint;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The clusters a project's manifests define, kept from one run to the next by a long-lived front end (the language
 * server): without it, each lint of a job whose cluster is in no open document walks the project root and reads its
 * every file again, per keystroke (15–29 s with a large root). Per root folder: the walk's files in path order and
 * the cluster names each defines ({@link ProjectClusters} builds it on its first lookup). The front end says what
 * changed on the disk: a changed file is read again at the next lookup; a file created or deleted, or a
 * configuration changed (its exclude shapes the walk), drops the index of every root above it.
 */
public final class ClusterIndex {

    /** One root's index: its files (null when it has more than ProjectClusters.MAX_FILES), and the clusters each defines. */
    record Index(List<Path> files, Map<Path, List<String>> names, Set<Path> stale) {}

    private final Map<Path, Index> byRoot = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong reads = new java.util.concurrent.atomic.AtomicLong();

    /** How many files lookups through this index have read, indexing included. */
    public long reads() { return reads.get(); }

    void read() { reads.incrementAndGet(); }

    /** A file changed on the disk (or its buffer was closed): read again at the next lookup. */
    public void changed(Path file) {
        Path f = file.toAbsolutePath().normalize();
        if (f.getFileName() != null && f.getFileName().toString().equals(dev.gpulint.config.Config.NAME)) {
            createdOrDeleted(f);
            return;
        }
        byRoot.forEach((root, ix) -> {
            if (f.startsWith(root)) ix.stale().add(f);
        });
    }

    /** A file or folder created or deleted: the walks of the roots above it are done again. */
    public void createdOrDeleted(Path file) {
        Path f = file.toAbsolutePath().normalize();
        byRoot.keySet().removeIf(f::startsWith);
    }

    /** Everything is read again (a change of settings; a client that does not say what changed). */
    public void clear() { byRoot.clear(); }

    Index of(Path root, Supplier<Index> build) { return byRoot.computeIfAbsent(root, r -> build.get()); }
}
