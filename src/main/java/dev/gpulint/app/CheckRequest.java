package dev.gpulint.app;

import dev.gpulint.lint.LintRequest;
import dev.gpulint.report.ReportOptions;

/**
 * One run as a front end asks for it, immutable: what to lint ({@link LintRequest}) and what shapes its reports
 * (SARIF category, help pages). Built by {@link Project} from a front end's options; carried out by {@link Checks}.
 */
public record CheckRequest(LintRequest lint, ReportOptions report) {
    /** The problems of the options and of missing paths, one sentence each: nothing is linted while there are some. */
    public java.util.List<String> problems() { return lint.problems(); }

    /** The lowest level that fails the run. */
    public dev.gpulint.core.FailOn failOn() { return lint.failOn(); }
}
