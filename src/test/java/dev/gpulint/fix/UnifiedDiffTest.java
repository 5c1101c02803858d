package dev.gpulint.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The diff --diff prints is the one diff -u writes: hunks with three lines of context, merged when close. */
class UnifiedDiffTest {

    private static String lines(int from, int to) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i <= to; i++) b.append("l").append(i).append('\n');
        return b.toString();
    }

    @Test
    void farApartChangesAreTwoHunks() {
        String before = lines(1, 20);
        String after = before.replace("l2\n", "L2\n").replace("l18\n", "L18\n");
        assertEquals("--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n l1\n-l2\n+L2\n l3\n l4\n l5\n"
                + "@@ -15,6 +15,6 @@\n l15\n l16\n l17\n-l18\n+L18\n l19\n l20\n", UnifiedDiff.of("f", before, after));
    }

    @Test
    void closeChangesShareAHunkAndADeletedLineIsShown() {
        String before = lines(1, 10);
        String after = before.replace("l3\n", "").replace("l7\n", "L7\n");
        assertEquals("--- a/f\n+++ b/f\n@@ -1,10 +1,9 @@\n l1\n l2\n-l3\n l4\n l5\n l6\n-l7\n+L7\n l8\n l9\n l10\n",
                UnifiedDiff.of("f", before, after));
    }

    @Test
    void aLastLineWithoutALineBreakIsMarked() {
        assertEquals("--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n",
                UnifiedDiff.of("f", "a\nb", "a\nc"));
        assertEquals("", UnifiedDiff.of("f", "same", "same"));
    }

    /** diff -u keeps a CRLF line's CR: without it patch refuses the hunk ("different line endings"). */
    @Test
    void aCrlfLineKeepsItsCarriageReturn() {
        assertEquals("--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n", UnifiedDiff.of("f", "a\r\nb\r\n", "a\r\nc\r\n"));
    }

    /** patch reads "--- a/my job.yaml" as the file "a/my"; a tab after the name (git's way) keeps it whole. */
    @Test
    void aNameWithASpaceEndsInATab() {
        assertEquals("--- a/my job.yaml\t\n+++ b/my job.yaml\t\n@@ -1 +1 @@\n-a\n+b\n", UnifiedDiff.of("my job.yaml", "a\n", "b\n"));
    }

    /** git's C-quoting: a tab, a line feed, a quote or a backslash in a name; UTF-8 names stay as they are. */
    @Test
    void namesThatWouldBreakTheHeaderAreCQuoted() {
        assertEquals("--- \"a/x\\ty.yaml\"\n+++ \"b/x\\ty.yaml\"\n@@ -1 +1 @@\n-a\n+b\n", UnifiedDiff.of("x\ty.yaml", "a\n", "b\n"));
        assertEquals("\"a/n\\nl \\\"q\\\" \\\\ \\033 é.yaml\"", UnifiedDiff.quoted("a/n\nl \"q\" \\ \u001b é.yaml"));
        assertEquals("a/é job.yaml", UnifiedDiff.quoted("a/é job.yaml"));
    }

    /** patch and git apply end a line at LF only: a lone-CR file is one line, and its CRs stay in the diff. */
    @Test
    void loneCarriageReturnsStayInTheLine() {
        assertEquals("--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\rb\r\n\\ No newline at end of file\n+a\rc\r\n\\ No newline at end of file\n",
                UnifiedDiff.of("f", "a\rb\r", "a\rc\r"));
    }
}
