package dev.gpulint.core;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Where a run's files are, for the outputs that must not depend on where gpulint was started:
 * {@code base} is the folder the display paths of findings are relative to (the working directory
 * of the command line, a Maven project's basedir), {@code root} the project root (the folder of
 * {@code .gpulint.yaml}, else the git top level, else the folder the linted paths have in common;
 * found by lint.ProjectRoot).
 * Baseline fingerprints and SARIF locations use paths relative to the root, so a baseline written
 * at the top of a repository still matches a run started in a sub-folder.
 */
public record ProjectPaths(Path base, Path root) {

    public ProjectPaths {
        base = base.toAbsolutePath().normalize();
        root = root.toAbsolutePath().normalize();
    }

    /** Base and root both the working directory (tests, and callers without a project). */
    public static ProjectPaths here() {
        Path cwd = Path.of("");
        return new ProjectPaths(cwd, cwd);
    }

    /** A display path as an absolute path, or null when it is no path (a stage name such as "gpulint"). */
    public Path absolute(String display) {
        try {
            Path p = Path.of(display);
            return (p.isAbsolute() ? p : base.resolve(p)).normalize();
        } catch (InvalidPathException e) {
            return null;
        }
    }

    /** The display path relative to the root, with '/' separators; null when the file lies outside the root. */
    public String underRoot(String display) {
        Path abs = absolute(display);
        if (abs == null || !abs.startsWith(root)) return null;
        String rel = PathNames.slashes(root.relativize(abs).toString());
        return rel.isEmpty() ? "." : rel;
    }

    /**
     * The path fingerprints are made of: relative to the root, or (outside it) the absolute path,
     * so that the same file has the same fingerprint from every working directory.
     */
    public String stable(String display) {
        String rel = underRoot(display);
        if (rel != null) return rel;
        Path abs = absolute(display);
        return abs == null ? display : PathNames.slashes(abs.toString());
    }
}
