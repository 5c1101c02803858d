package dev.gpulint.report;

import java.nio.file.Path;

/** The paths reports name: relative to the source root, with forward slashes, as review tools expect. */
final class ReportPaths {
    private ReportPaths() {}

    /**
     * {@code file} relative to {@code srcRoot} (absolute and normalized) when it lies inside it;
     * otherwise as given, normalized. Never starts with {@code ./}.
     */
    static String relative(Path srcRoot, String file) {
        Path p = Path.of(file);
        Path abs = p.toAbsolutePath().normalize();
        String rel = abs.startsWith(srcRoot) ? srcRoot.relativize(abs).toString() : p.normalize().toString();
        return rel.replace('\\', '/');
    }
}
