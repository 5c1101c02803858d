package dev.gpulint.core;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;
import java.util.List;

/**
 * The settled outcome of one run: findings in their final order with levels,
 * the files that were linted, whether any input could not be read or
 * parsed (exit code 2), and where the project is ({@link ProjectPaths}: the root that
 * fingerprints and SARIF paths are relative to).
 */
public record LintResult(List<Finding> findings, List<String> files, boolean inputFailed, int baselined, ProjectPaths paths) {
    public LintResult {
        findings = List.copyOf(findings);
        files = List.copyOf(files);
        if (paths == null) paths = ProjectPaths.here();
    }

    public LintResult(List<Finding> findings, List<String> files, boolean inputFailed, int baselined) {
        this(findings, files, inputFailed, baselined, ProjectPaths.here());
    }

    public LintResult(List<Finding> findings, List<String> files, boolean inputFailed) {
        this(findings, files, inputFailed, 0);
    }

    /** A finding's fingerprint, with its file relative to the project root (the same from every working directory). */
    public String fingerprint(Finding f) {
        return Fingerprints.of(f, paths);
    }

    /**
     * The files this run reports on: those linted, and those a finding names although they were not
     * linted (a file skipped with a note, an unreadable one). The closing line counts these, and the
     * JUnit report has one test suite for each.
     */
    public java.util.SortedSet<String> reportedFiles() {
        java.util.SortedSet<String> all = new java.util.TreeSet<>(files);
        for (Finding f : findings) all.add(f.span().file());
        return all;
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
