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
 * is the same request with other {@link #fixedTexts()} ({@link #withFixedTexts}).
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
 * @param buffers texts that stand for files, by absolute normalised path (an editor's unsaved buffers)
 * @param fixedTexts texts fixed in memory that stand for what the files of these display paths held when read
 *            (check --fix and --diff re-lint before anything is written; standard input is read once)
 * @param session what a long-lived front end keeps across its runs (the folders consenting to found configurations'
 *            rules, the project's cluster index: a cache the run may fill), or null for a one-off run
 */
public record LintRequest(Path base, Path configFile, Path rulesDir, List<String> paths, List<Path> files,
                          Map<Path, IOException> unreadable, InputStream stdin, String stdinName, Set<String> baseline,
                          Path baselineFile, Long maxFileSize, int maxFindingsPerRule, FailOn failOn, List<String> problems,
                          Path top, boolean includeOutside, Map<Path, String> buffers, Map<String, String> fixedTexts,
                          ProjectRun.Session session) {
    public LintRequest {
        paths = List.copyOf(paths);
        files = List.copyOf(files);
        unreadable = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(unreadable));
        baseline = Set.copyOf(baseline);
        problems = List.copyOf(problems);
        buffers = Map.copyOf(buffers);
        fixedTexts = Map.copyOf(fixedTexts);
    }

    /** This request with {@code texts} standing for the files of those display paths (a pass of the fix loop). */
    public LintRequest withFixedTexts(Map<String, String> texts) {
        return new LintRequest(base, configFile, rulesDir, paths, files, unreadable, stdin, stdinName, baseline, baselineFile,
                maxFileSize, maxFindingsPerRule, failOn, problems, top, includeOutside, buffers, texts, session);
    }
}
