package dev.gpulint.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gpulint.ruletest.RuleCases;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every help page's "Failing example" is one of its rule's cases (rules/&lt;family&gt;/ID.test.yaml), which
 * {@code RuleCasesTest} lints: the page names the case, shows its files (whole, or a stated range of lines),
 * and quotes the message and location that case expects. So the quoted message is what the example produces,
 * to the byte, and a page cannot drift from its rule.
 */
class HelpPageExamplesTest {

    private static final Pattern CASE = Pattern.compile("^The case \"(.*)\" of the rule's tests \\(`([^`]+)`\\)");
    private static final Pattern FILE = Pattern.compile("^(\\S+?)(?: \\(lines (\\d+)-(\\d+) of (\\d+)\\))?:$");
    private static final Pattern AT = Pattern.compile("^gpulint reports at (.+):(\\d+):(\\d+):$");

    /** A help page's example as written: the case it names, its shown files, and the finding it quotes. */
    record Example(String caseName, String testFile, List<Shown> files, String file, int line, int column, String message) {}

    /** A file shown on the page: its text, and the lines of the case's file it is (0, 0 for the whole file). */
    record Shown(String name, String text, int from, int to) {}

    @TestFactory
    Stream<DynamicTest> everyHelpPageShowsACaseAndTheMessageItProduces() {
        List<DynamicTest> tests = new ArrayList<>();
        for (RuleMeta r : RuleCatalog.builtIn().all()) {
            if (r.helpMarkdown() == null) continue;
            tests.add(DynamicTest.dynamicTest(r.id(), () -> check(r)));
        }
        assertTrue(tests.size() > 70, "the built-in rules' help pages");
        return tests.stream();
    }

    private static void check(RuleMeta r) throws Exception {
        Example x = parse(r.helpMarkdown());
        if (x == null) fail(r.id() + " help page: its Failing example names no case of the rule's tests");
        Path source = RuleCases.RULES.resolve(r.family()).resolve(r.id() + ".test.yaml");
        assertEquals("rules/" + r.family() + "/" + r.id() + ".test.yaml", x.testFile(), r.id() + ": the page names its own tests");
        RuleCases.Case c = RuleCases.load(source).stream().filter(k -> k.name().replace('"', '\'').equals(x.caseName()))
                .findFirst().orElse(null);
        if (c == null) fail(r.id() + " help page names case \"" + x.caseName() + "\", which " + source + " lacks");
        assertEquals(List.copyOf(c.files().keySet()), x.files().stream().map(Shown::name).toList(),
                r.id() + ": the page shows the case's files, in order");
        for (Shown s : x.files()) {
            String text = c.files().get(s.name());
            String[] lines = text.split("\n", -1);
            int count = text.endsWith("\n") ? lines.length - 1 : lines.length;
            String expected = s.from() == 0 ? (text.endsWith("\n") ? text : text + "\n")
                    : String.join("\n", List.of(lines).subList(s.from() - 1, Math.min(s.to(), count))) + "\n";
            assertEquals(expected, s.text(), r.id() + ": " + s.name() + " as the case has it");
        }
        boolean found = c.expect().stream().anyMatch(e -> e.file().equals(x.file()) && e.line() == x.line()
                && e.column() == x.column() && e.message().equals(x.message()));
        assertTrue(found, r.id() + " help page quotes " + x.file() + ":" + x.line() + ":" + x.column() + " `" + x.message()
                + "`, which case \"" + c.name() + "\" does not expect");
    }

    /** The example of a page's "## Failing example" section; null when it names no case. */
    static Example parse(String markdown) {
        String caseName = null, testFile = null, file = null, message = null;
        int line = 0, column = 0;
        List<Shown> files = new ArrayList<>();
        boolean in = false;
        String[] ls = markdown.split("\n", -1);
        for (int i = 0; i < ls.length; i++) {
            String l = ls[i];
            if (l.startsWith("## ")) { in = l.equals("## Failing example"); continue; }
            if (!in) continue;
            Matcher m;
            if ((m = CASE.matcher(l)).find()) {
                caseName = m.group(1);
                testFile = m.group(2);
            } else if ((m = AT.matcher(l)).matches()) {
                file = m.group(1);
                line = Integer.parseInt(m.group(2));
                column = Integer.parseInt(m.group(3));
            } else if ((m = FILE.matcher(l)).matches() && i + 1 < ls.length && ls[i + 1].startsWith("```")) {
                StringBuilder b = new StringBuilder();
                int j = i + 2;
                for (; j < ls.length && !ls[j].equals("```"); j++) b.append(ls[j]).append('\n');
                files.add(new Shown(m.group(1), b.toString(), m.group(2) == null ? 0 : Integer.parseInt(m.group(2)),
                        m.group(3) == null ? 0 : Integer.parseInt(m.group(3))));
                i = j;
            } else if (file != null && message == null && l.length() > 2 && l.startsWith("`") && l.endsWith("`")) {
                message = l.substring(1, l.length() - 1);
            }
        }
        return caseName == null || file == null || message == null ? null
                : new Example(caseName, testFile, files, file, line, column, message);
    }

    @Test
    void theParserReadsAPageAsWritten() {
        String page = "# X\n## What it checks\n`no`\n## Failing example\nThe case \"tp over a node\" of the rule's tests "
                + "(`rules/par/X.test.yaml`), which the build lints:\n\njob.yaml:\n```yaml\nnodes: 2\n```\n"
                + "log.txt (lines 3-4 of 9):\n```text\nc\nd\n```\n\ngpulint reports at job.yaml:1:8:\n\n`tp=16 spans 2 nodes.`\n\n## Fixed\n`x`\n";
        Example x = parse(page);
        assertEquals(new Example("tp over a node", "rules/par/X.test.yaml",
                List.of(new Shown("job.yaml", "nodes: 2\n", 0, 0), new Shown("log.txt", "c\nd\n", 3, 4)),
                "job.yaml", 1, 8, "tp=16 spans 2 nodes."), x);
        assertEquals(null, parse("# X\n## Failing example\n```yaml\nnodes: 2\n```\n`tp=16 spans 2 nodes`\n"),
                "a page with a hand-made example and message names no case");
    }
}
