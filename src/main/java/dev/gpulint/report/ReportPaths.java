package dev.gpulint.report;

import dev.gpulint.core.ProjectPaths;
import java.nio.file.Path;

/**
 * The paths CI reports (JUnit, GitLab Code Quality) name: relative to the project root, as SARIF's
 * are, with forward slashes, so the same run gives the same report from any working directory. GitLab
 * resolves Code Quality paths from the repository root, {@code CI_PROJECT_DIR}: where that is set it is
 * the root instead ({@link #root}).
 */
final class ReportPaths {
    private ReportPaths() {}

    /** The folder reports are relative to: {@code override} when given (CI_PROJECT_DIR), else the project root. */
    static Path root(Path override, ProjectPaths paths) {
        return (override != null ? override : paths.root()).toAbsolutePath().normalize();
    }

    /**
     * A display path relative to {@code root} (with {@code ../} for a file outside it, as CI tools
     * take no absolute paths), or as given when it is no path. Never starts with {@code ./}.
     */
    static String relative(Path root, ProjectPaths paths, String file) {
        Path abs = paths.absolute(file);
        if (abs == null) return file;
        String rel = root.getRoot() != null && root.getRoot().equals(abs.getRoot()) ? root.relativize(abs).toString() : abs.toString();
        return dev.gpulint.core.PathNames.slashes(rel);
    }

    /** Relative to {@code root} when the file lies inside it, else as given (normalized): GitHub's annotations. */
    static String inside(Path root, ProjectPaths paths, String file) {
        Path abs = paths.absolute(file);
        if (abs == null) return file;
        String rel = abs.startsWith(root) ? root.relativize(abs).toString() : Path.of(file).normalize().toString();
        return dev.gpulint.core.PathNames.slashes(rel);
    }
}
