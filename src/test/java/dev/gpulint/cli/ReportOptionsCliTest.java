package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli.Run;
import dev.gpulint.testing.PlanCli;
import org.junit.jupiter.api.Test;

/** The report options of `check` (--format, --sarif-category, --help-uri-base), run in process. */
class ReportOptionsCliTest {

    private static final String JOB = "../samples/broken/tp16-job.yaml";

    @Test
    void sarifNamesItsCategoryAndHelpPagesOnlyWhenAsked() {
        String plain = PlanCli.run("-f", "sarif", JOB).out();
        assertTrue(plain.contains("\"id\" : \"gpulint/\""), plain);
        assertFalse(plain.contains("helpUri"), plain);
        Run r = PlanCli.run("-f", "sarif", "--sarif-category", "jobs", "--help-uri-base",
                "https://git.example.com/gpulint/-/blob/v0.1.0/docs/rules/", JOB);
        assertEquals(1, r.code(), r.err());
        assertTrue(r.out().contains("\"id\" : \"gpulint/jobs/\""), r.out());
        assertTrue(r.out().contains("\"helpUri\" : \"https://git.example.com/gpulint/-/blob/v0.1.0/docs/rules/PAR002.md\""), r.out());
    }

    @Test
    void aBadHelpUriBaseOrCategoryIsBadUsage() {
        Run r = PlanCli.run("-f", "sarif", "--help-uri-base", "docs/rules/", JOB);
        assertEquals(2, r.code());
        assertEquals("", r.out());
        assertEquals("gpulint: --help-uri-base must be an absolute URI such as https://example.com/gpulint/docs/rules/ (got 'docs/rules/')\n", r.err());
        Run c = PlanCli.run("-f", "sarif", "--sarif-category", "/", JOB);
        assertEquals(2, c.code());
        assertEquals("gpulint: --sarif-category must name a category, e.g. training-jobs\n", c.err());
    }

    @Test
    void junitAndGitlabAreFormats() {
        Run j = PlanCli.run("-f", "junit", JOB);
        assertEquals(1, j.code(), j.err());
        assertTrue(j.out().startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"gpulint\""), j.out());
        assertTrue(j.out().contains("<testsuite name=\"samples/broken/tp16-job.yaml\""), j.out());
        Run g = PlanCli.run("--format", "GitLab", JOB, "../samples/broken/roce-cluster.yaml");
        assertEquals(1, g.code(), g.err());
        assertTrue(g.out().startsWith("[ {\n  \"description\" : \""), g.out());
        assertTrue(g.out().contains("\"description\" : \"tp=16 spans 2 nodes"), g.out());
        assertTrue(g.out().contains("\"check_name\" : \"PAR002\""), g.out());
        Run h = PlanCli.run("check", "--help");
        assertTrue(h.out().replaceAll("\\s+", " ").contains("junit (JUnit XML) or gitlab (GitLab Code Quality)"), h.out());
    }
}
