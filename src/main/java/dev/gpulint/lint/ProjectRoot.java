package dev.gpulint.lint;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The project a run belongs to, found from the linted paths rather than from where gpulint was
 * started: the folder of the configuration ({@code .gpulint.yaml}, or {@code --config}) when the
 * linted paths lie under it; else the git top level above them (the nearest folder with a
 * {@code .git} folder or file, found by walking up: no git process is started); else the fallback the
 * caller gives: for the reports the folder the linted paths have in common ({@link #start}), so that no report
 * depends on the working directory; for the job's cluster lookup the working directory. Baselines and the
 * machine-read reports name files relative to it
 * ({@link dev.gpulint.core.ProjectPaths}), and a job's cluster is looked for in its manifests
 * ({@link ProjectClusters}).
 */
public final class ProjectRoot {
    private ProjectRoot() {}

    /**
     * The folder the linted paths have in common (a file counts by its folder), absolute and
     * normalised; {@code base} when nothing is given.
     *
     * @param given paths as given, relative ones to {@code base}
     */
    public static Path start(Path base, List<String> given) {
        Path b = base.toAbsolutePath().normalize();
        Path common = null;
        for (String g : given) {
            Path p;
            try {
                p = b.resolve(dev.gpulint.core.PathNames.given(g, b)).normalize();
            } catch (java.nio.file.InvalidPathException e) {
                continue;
            }
            Path folder = Files.isDirectory(p) ? p : p.getParent() != null ? p.getParent() : p;
            common = common == null ? folder : common(common, folder);
        }
        return common == null ? b : common;
    }

    private static Path common(Path a, Path b) {
        Path c = a;
        while (c != null && !b.startsWith(c)) c = c.getParent();
        return c == null ? a.getRoot() : c;
    }

    /**
     * The project root for a run.
     *
     * @param config the configuration file in use (found or given), or null
     * @param start  the folder the linted paths have in common ({@link #start})
     * @param base   the last resort: the linted paths' common folder (reports) or the working directory (cluster lookup)
     */
    public static Path find(Path config, Path start, Path base) {
        Path s = start.toAbsolutePath().normalize();
        if (config != null) {
            Path folder = config.toAbsolutePath().normalize().getParent();
            if (folder != null && s.startsWith(folder)) return folder;
        }
        Path git = gitTop(s);
        return git != null ? git : base.toAbsolutePath().normalize();
    }

    /** The nearest folder from {@code start} upwards that holds {@code .git} (a folder, or a file in worktrees and submodules). */
    static Path gitTop(Path start) {
        for (Path d = start; d != null; d = d.getParent()) {
            if (Files.exists(d.resolve(".git"))) return d;
        }
        return null;
    }
}
