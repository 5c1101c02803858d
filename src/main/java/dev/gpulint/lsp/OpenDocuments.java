package dev.gpulint.lsp;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The documents the editor has open, each with the text of its buffer (the server asks for whole-text
 * synchronisation, so a change carries the buffer's full text). Only {@code file:} documents are kept: gpulint's
 * configuration, clusters and project are found from a document's place on the disk.
 */
final class OpenDocuments {

    /** An open document: its URI as the client wrote it, its path, version and buffer text. */
    record Doc(String uri, Path path, int version, String text) {}

    private final Map<String, Doc> open = new ConcurrentHashMap<>();

    /** Opens or replaces a document; false when its URI is no local file (an untitled buffer, a remote one). */
    boolean put(String uri, int version, String text) {
        Path p = path(uri);
        if (p == null) return false;
        open.put(uri, new Doc(uri, p, version, text));
        return true;
    }

    Doc remove(String uri) { return open.remove(uri); }

    Doc get(String uri) { return open.get(uri); }

    List<Doc> all() { return new ArrayList<>(open.values()); }

    /** The buffers' texts by absolute path: what the lint reads instead of those files on the disk. */
    Map<Path, String> overlay() {
        Map<Path, String> m = new java.util.HashMap<>();
        for (Doc d : open.values()) m.put(d.path(), d.text());
        return m;
    }

    /** The open document of a path, or null. */
    Doc byPath(Path p) {
        for (Doc d : open.values()) if (d.path().equals(p)) return d;
        return null;
    }

    /** The absolute, normalised path of a {@code file:} URI, or null. */
    static Path path(String uri) {
        try {
            URI u = new URI(uri);
            if (!"file".equalsIgnoreCase(u.getScheme())) return null;
            return Path.of(u).toAbsolutePath().normalize();
        } catch (java.net.URISyntaxException | IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            return null;
        }
    }
}
