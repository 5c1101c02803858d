package dev.gpulint.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Finding;
import dev.gpulint.core.LintResult;
import dev.gpulint.core.Span;
import dev.gpulint.engine.UserRules;
import dev.gpulint.read.SourceFile;
import dev.gpulint.settle.FindingCap;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.gpulint.testing.CpuLimit;

/** Whatever a stage or a user rule throws is a finding naming it; the rest of the run is still reported. */
class ContainmentTest {

    private static final SourceFile JOB = SourceFile.of("job.yaml", "kind: training_job\nname: ok\ncluster: missing\n");

    private static LintResult withUserRule(Path dir, String consequence, Duration budget) throws IOException {
        Files.writeString(dir.resolve("MY001.drl"), """
                package custom;
                import dev.gpulint.facts.JobFact;
                global dev.gpulint.engine.FindingSink sink;
                function int down(int n) { return down(n + 1) + 1; }
                rule "MY001 hostile"
                    @id("MY001")
                when
                    $j : JobFact()
                then
                """ + consequence + "\nend\n");
        Files.writeString(dir.resolve("MY001.yaml"), "id: MY001\nname: hostile\nlevel: warning\ntitle: t\ndescription: d\nremediation: r\n");
        UserRules user = UserRules.load(dir, p -> p.getFileName().toString());
        assertEquals(List.of(), user.problems());
        return new Linter().withUserRules(user, Span.at("rules", 1, 1)).userRuleBudget(budget).lint(List.of(JOB));
    }

    private static List<String> lines(LintResult r) {
        List<String> out = new ArrayList<>();
        for (Finding f : r.findings()) out.add(f.span().file() + " " + f.ruleId() + " " + f.message());
        return out;
    }

    private static void assertBuiltInStillReported(LintResult r) {
        assertTrue(lines(r).stream().anyMatch(s -> s.startsWith("job.yaml SYN003")), "built-in findings: " + lines(r));
        assertTrue(r.inputFailed(), "the run exits 2");
    }

    @Test
    void aConsequenceThatThrowsIsAFindingNamingTheRuleAndFile(@TempDir Path dir) throws IOException {
        LintResult r = withUserRule(dir, "throw new IllegalStateException(\"boom\");", Duration.ofSeconds(60));
        assertBuiltInStillReported(r);
        assertTrue(lines(r).contains("MY001.drl TOOL001 user rule 'MY001 hostile' (MY001.drl) failed: IllegalStateException: boom; "
                + "its findings are missing, the built-in rules' are reported."), lines(r).toString());
    }

    @Test
    void aStackOverflowInAUserRuleIsContained(@TempDir Path dir) throws IOException {
        LintResult r = withUserRule(dir, "down(0);", Duration.ofSeconds(60));
        assertBuiltInStillReported(r);
        assertTrue(lines(r).stream().anyMatch(s -> s.contains("user rule 'MY001 hostile' (MY001.drl) failed: StackOverflowError")), lines(r).toString());
    }

    @Test
    void anOutOfMemoryErrorInAUserRuleIsContained(@TempDir Path dir) throws IOException {
        LintResult r = withUserRule(dir, "long[] a = new long[Integer.MAX_VALUE]; sink.report(\"MY001\", $j.getNameSpan(), \"x\", \"\" + a.length);",
                Duration.ofSeconds(60));
        assertBuiltInStillReported(r);
        assertTrue(lines(r).stream().anyMatch(s -> s.contains("user rule 'MY001 hostile' (MY001.drl) failed: OutOfMemoryError")), lines(r).toString());
    }

    @Test
    @CpuLimit(seconds = 60)
    void aUserRuleLoopingInsideOneConsequenceIsStoppedByTheBudget(@TempDir Path dir) throws IOException {
        // busy until the test releases it (then the abandoned thread ends, rather than burn the test machine); whether the
        // run waited is told by the rule's own state when the run returns, never by the clock (a loaded runner stretches it)
        String looping = "gpulint.test.containment.looping", release = "gpulint.test.containment.release",
                ended = "gpulint.test.containment.ended";
        LintResult r;
        try {
            r = withUserRule(dir, "System.setProperty(\"" + looping + "\", \"yes\"); while (System.getProperty(\"" + release
                    + "\") == null) { } System.setProperty(\"" + ended + "\", \"yes\");", Duration.ofSeconds(1));
            assertEquals("yes", System.getProperty(looping), "the rule ran");
            assertNull(System.getProperty(ended), "the run did not wait for the rule: it is still looping");
        } finally {
            System.setProperty(release, "yes");
        }
        assertBuiltInStillReported(r);
        assertTrue(lines(r).stream().anyMatch(s -> s.startsWith("MY001.drl TOOL001 the rules of rules ran longer than 1 s and were stopped "
                + "inside user rule 'MY001 hostile' (MY001.drl)")), lines(r).toString());
    }

    @Test
    void aSharedStageThatFailsIsAFindingNamingIt() {
        Contained guard = new Contained();
        List<Object> got = guard.stage("derive", () -> { throw new StackOverflowError(); }, List.of());
        assertEquals(List.of(), got);
        assertEquals("gpulint TOOL001 the derive stage failed (StackOverflowError: nesting or recursion too deep) and was skipped: "
                        + "its findings are missing; please report this with the files linted.",
                lines(new LintResult(guard.problems(), List.of(), true, 0)).get(0));
        Contained oom = new Contained();
        oom.stage("built-in rules", () -> { throw new OutOfMemoryError("Java heap space"); }, List.of());
        assertEquals("the built-in rules stage failed (OutOfMemoryError: it needs more memory than gpulint has) and was skipped: "
                + "its findings are missing; " + REMEDY + ".", oom.problems().get(0).message());
    }

    /** What bounds a fleet that does not fold, and what the user can do about it (#25 item 10). */
    static final String REMEDY = "give gpulint more memory, e.g. JAVA_TOOL_OPTIONS=-Xmx8g: a fleet file needs about 3 KB per node group "
            + "that does not fold (1,000,000 distinct node groups: about 3 GB), about 100 bytes per one written exactly like an "
            + "earlier one, so write alike node groups alike, or split the fleet over several files (README, Bad input and limits)";

    @Test
    void runningOutOfMemoryAsksForMemoryAndAnyOtherFailureForAReport() {
        assertEquals(REMEDY,
                Contained.remedy(new OutOfMemoryError("Java heap space"), "please report this file"));
        assertEquals("please report this file", Contained.remedy(new StackOverflowError(), "please report this file"));
        assertEquals("please report this file", Contained.remedy(new IllegalStateException("x"), "please report this file"));
    }

    @Test
    void aFileWhoseBindFailsCostsOnlyThatFile() {
        var good = dev.gpulint.read.Readers.read(JOB).documents();
        Contained guard = new Contained();
        var bound = guard.bind(List.of(new dev.gpulint.tree.Document("bad.yaml", 0, null), good.get(0)));
        assertEquals(1, bound.jobs().size(), "the good file is still bound");
        assertEquals(1, guard.problems().size());
        assertTrue(guard.problems().get(0).message().startsWith("'bad.yaml' could not be bound: NullPointerException"),
                guard.problems().get(0).message());
        assertEquals("bad.yaml", guard.problems().get(0).span().file());
    }

    @Test
    void findingsAreCappedPerRuleAndFileWithOneNote() {
        List<Finding> many = new ArrayList<>();
        for (int i = 1; i <= 2500; i++) many.add(Finding.of("PAR002", Span.at("a.yaml", i, 1), "x" + i, "m" + i));
        for (int i = 1; i <= 3; i++) many.add(Finding.of("PAR002", Span.at("b.yaml", i, 1), "y" + i, "m" + i));
        List<Finding> capped = FindingCap.apply(many, 1000);
        assertEquals(1000 + 1 + 3, capped.size());
        Finding note = capped.get(1000);
        assertEquals("1500 more PAR002 findings in 'a.yaml' were left out: at most 1000 per rule and file are reported "
                + "(--max-findings-per-rule).", note.message());
        assertEquals(dev.gpulint.core.Level.NOTE, note.level());
        assertEquals(many.subList(2500, 2503), capped.subList(1001, 1004));
    }
}
