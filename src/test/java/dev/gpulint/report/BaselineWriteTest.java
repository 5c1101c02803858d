package dev.gpulint.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.core.Finding;
import dev.gpulint.core.LintResult;
import dev.gpulint.core.Span;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.settle.Baseline;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A baseline gpulint writes holds every finding (issue 40, item 15): it was cut at GitHub's 25,000-result upload cap,
 * so a run with more findings reported the rest as new on its next --baseline run. A baseline's own bound is
 * {@link Baseline#MAX_FINGERPRINTS}; the SARIF for upload keeps GitHub's.
 */
class BaselineWriteTest {

    @Test
    void aBaselineHoldsMoreThanGithubsUploadCap(@TempDir Path dir) throws IOException {
        int n = SarifRenderer.GITHUB_MAX_RESULTS + 5;
        List<Finding> many = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) many.add(Finding.of("PAR002", Span.at("j.yaml", i, 1), "j" + i, "finding " + i)
                .withLevel(dev.gpulint.core.Level.WARNING));
        LintResult result = new LintResult(many, List.of("j.yaml"), false);
        Path b = dir.resolve("baseline.sarif");
        try (Writer w = Files.newBufferedWriter(b, StandardCharsets.UTF_8)) {
            ReportOptions.baseline(RuleCatalog.builtIn()).render(result, w);
        }
        Set<String> read = Baseline.read(b);
        assertEquals(n, read.size(), "every finding's fingerprint is in the baseline");
        Path upload = dir.resolve("upload.sarif");
        try (Writer w = Files.newBufferedWriter(upload, StandardCharsets.UTF_8)) {
            ReportOptions.DEFAULT.sarif(RuleCatalog.builtIn()).render(result, w);
        }
        assertEquals(SarifRenderer.GITHUB_MAX_RESULTS, Baseline.read(upload).size(), "the SARIF for upload keeps GitHub's cap");
    }
}
