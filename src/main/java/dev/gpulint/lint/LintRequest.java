package dev.gpulint.lint;

import dev.gpulint.core.FailOn;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One lint run as a front end asks for it, immutable: built by app.Project from the options (each parsed and
 * checked there once, its problems in {@link #problems()}), carried out by {@link ProjectRun}. A pass of the fix loop
 * is the same request with the texts it fixed overlaid ({@link #withOverlay}).
 *
 * @param base the folder display paths are relative to (the working folder; a Maven module's basedir)
 * @param configFile the configuration file given, or null: the nearest {@code .gpulint.yaml}
 * @param rulesDir an extra folder of the team's own rules, or null
 * @param paths files and folders as given; {@code files} the files a glob selection matched
 * @param unreadable what the glob selection could not read, by file: reported as findings
 * @param stdin standard input to lint under {@code stdinName}, or null
 * @param baseline fingerprints of accepted findings; {@code baselineFile} the file they were read from, or null
 * @param maxFileSize files larger than this are reported instead of read (null: the default)
 * @param maxFindingsPerRule findings of one rule in one file beyond this are counted in a note
 * @param failOn the lowest level that fails the run
 * @param problems what is wrong with the request (bad option values, missing files), one sentence each
 * @param top the folder that is the project root when no configuration or git top level says otherwise
 *            (a Maven build's top-level project), or null for the base folder
 * @param includeOutside the configuration's include may name files and folders outside the project
 *            (--include-outside-project)
 * @param overlay texts that stand for files wherever the run meets them: an editor's unsaved buffers, and the texts
 *            the fix loop fixed in memory (check --fix and --diff re-lint before anything is written), one map by
 *            absolute path ({@link Overlay})
 * @param session what a long-lived front end keeps across its runs (the folders consenting to found configurations'
 *            rules, the project's cluster index: a cache the run may fill), or null for a one-off run
 */
public record LintRequest(Path base, Path configFile, Path rulesDir, List<String> paths, List<Path> files,
                          Map<Path, IOException> unreadable, InputStream stdin, String stdinName, Set<String> baseline,
                          Path baselineFile, Long maxFileSize, int maxFindingsPerRule, FailOn failOn, List<String> problems,
                          Path top, boolean includeOutside, Overlay overlay,
                          ProjectRun.Session session) {
    public LintRequest {
        paths = List.copyOf(paths);
        files = List.copyOf(files);
        unreadable = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(unreadable));
        baseline = Set.copyOf(baseline);
        problems = List.copyOf(problems);
        overlay = overlay == null ? Overlay.NONE : overlay;
    }

    /** This request with {@code overlay} standing for the files (a pass of the fix loop: the buffers and the fixed texts). */
    public LintRequest withOverlay(Overlay overlay) {
        return new LintRequest(base, configFile, rulesDir, paths, files, unreadable, stdin, stdinName, baseline, baselineFile,
                maxFileSize, maxFindingsPerRule, failOn, problems, top, includeOutside, overlay, session);
    }
}
