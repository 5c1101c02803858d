package dev.gpulint.lint;

import dev.gpulint.core.FailOn;
import dev.gpulint.report.ReportOptions;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * One run as a front end asks for it, the same for the command line, the Maven plugin and
 * {@code test-rules}: built by {@link Project} from the options (each parsed and checked there once,
 * its problems in {@link #problems()}), then linted by it.
 *
 * @param base the folder display paths are relative to (the working folder; a Maven module's basedir)
 * @param configFile the configuration file given, or null: the nearest {@code .gpulint.yaml}
 * @param rulesDir an extra folder of the team's own rules, or null
 * @param paths files and folders as given; {@code files} the files a glob selection matched
 * @param stdin standard input to lint under {@code stdinName}, or null
 * @param baseline fingerprints of accepted findings
 * @param maxFileSize files larger than this are reported instead of read (null: the default)
 * @param maxFindingsPerRule findings of one rule in one file beyond this are counted in a note
 * @param failOn the lowest level that fails the run
 * @param report what shapes the reports (SARIF category, help pages)
 * @param problems what is wrong with the request (bad option values, missing files), one sentence each
 * @param top the folder that is the project root when no configuration or git top level says otherwise
 *            (a Maven build's top-level project), or null for the base folder
 * @param includeOutside the configuration's include may name files and folders outside the project
 *            (--include-outside-project)
 */
public record LintRequest(Path base, Path configFile, Path rulesDir, List<String> paths, List<Path> files,
                          InputStream stdin, String stdinName, Set<String> baseline, Long maxFileSize,
                          int maxFindingsPerRule, FailOn failOn, ReportOptions report, List<String> problems, Path top,
                          boolean includeOutside) {
    public LintRequest {
        paths = List.copyOf(paths);
        files = List.copyOf(files);
        baseline = Set.copyOf(baseline);
        problems = List.copyOf(problems);
    }
}
