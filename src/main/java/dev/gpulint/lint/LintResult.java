package dev.gpulint.lint;

import dev.gpulint.report.Finding;
import dev.gpulint.report.Level;
import java.util.List;

/**
 * The settled outcome of one run: findings in their final order with levels,
 * the files that were linted, and whether any input could not be read or
 * parsed (exit code 2).
 */
public record LintResult(List<Finding> findings, List<String> files, boolean inputFailed) {
    public LintResult {
        findings = List.copyOf(findings);
        files = List.copyOf(files);
    }

    public long count(Level l) { return findings.stream().filter(f -> f.level() == l).count(); }

    public boolean anyAtOrAbove(Level threshold) {
        return findings.stream().anyMatch(f -> f.level().compareTo(threshold) >= 0);
    }
}
