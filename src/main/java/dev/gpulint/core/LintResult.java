package dev.gpulint.core;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;
import java.util.List;

/**
 * The settled outcome of one run: findings in their final order with levels,
 * the files that were linted, and whether any input could not be read or
 * parsed (exit code 2).
 */
public record LintResult(List<Finding> findings, List<String> files, boolean inputFailed, int baselined) {
    public LintResult {
        findings = List.copyOf(findings);
        files = List.copyOf(files);
    }

    public LintResult(List<Finding> findings, List<String> files, boolean inputFailed) {
        this(findings, files, inputFailed, 0);
    }

    /** Findings at a level, suppressed ones left out. */
    public long count(Level l) { return findings.stream().filter(f -> !f.suppressed() && f.level() == l).count(); }

    public long suppressedCount() { return findings.stream().filter(Finding::suppressed).count(); }

    /** Whether an unsuppressed finding reaches the threshold (the exit code). */
    public boolean anyAtOrAbove(Level threshold) {
        return findings.stream().anyMatch(f -> !f.suppressed() && f.level().compareTo(threshold) >= 0);
    }

    /** Unsuppressed findings at or above a level. */
    public long countAtOrAbove(Level threshold) {
        return findings.stream().filter(f -> !f.suppressed() && f.level().compareTo(threshold) >= 0).count();
    }
}
