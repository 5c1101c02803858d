package dev.gpulint.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gpulint.ruletest.RuleCases;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every built-in DRL rule words its findings through its ID.yaml {@code messages:}: no DRL {@code function}
 * (a function is shared by every file of its package), no rule ID in a report call (the sink takes it from
 * {@code @id}), every message key a report names exists, and every argument its template uses is given.
 * Read from the sources, so that a rule added or changed later cannot regress silently.
 */
class RuleMessagesTest {

    private static final Pattern FUNCTION = Pattern.compile("(?m)^\\s*function\\s");
    private static final Pattern PLAIN_REPORT = Pattern.compile("sink\\s*\\.\\s*report(As)?\\s*\\(");
    private static final Pattern AT = Pattern.compile("sink\\s*\\.\\s*(?:about\\s*\\(([^)]*)\\)\\s*\\.\\s*)?at\\s*\\(");
    /** A pattern binding a fact in a condition: {@code $g : NodeGroupFact(}. */
    private static final Pattern BINDING = Pattern.compile("(\\$\\w+)\\s*:\\s*([A-Z]\\w*)\\s*\\(");
    private static final Pattern IMPORT = Pattern.compile("(?m)^import\\s+([\\w.]+)\\s*;");
    /** An argument that copies a getter of the same name: {@code .arg("tp", $p.getTp())}. */
    private static final Pattern COPY = Pattern.compile("\\.arg\\(\\s*\"(\\w+)\"\\s*,\\s*\\$\\w+\\.(?:get|is)(\\w+)\\(\\)\\s*\\)");
    private static final Pattern ARG = Pattern.compile("\\.arg\\(\\s*\"([A-Za-z0-9_]+)\"");
    /** A fix's title key: the second argument of .fix(, .fixWithin( or .fixEach( (the first is its safety). */
    private static final Pattern FIX = Pattern.compile("\\.fix(?:Within|Each)?\\(\\s*[^,;]+,\\s*\"([A-Za-z0-9_-]+)\"");
    private static final Pattern RELATED = Pattern.compile("\\.related\\([^;]*?,\\s*\"([A-Za-z0-9_-]+)\"\\s*\\)");
    private static final Pattern REPORT = Pattern.compile("\\.report\\(\\s*\"([A-Za-z0-9_-]+)\"\\s*\\)\\s*;");

    @TestFactory
    Stream<DynamicTest> everyRuleWordsItsFindingsThroughItsTemplates() {
        List<DynamicTest> tests = new ArrayList<>();
        for (RuleMeta r : RuleCatalog.builtIn().all()) {
            if (!r.engine().equals("drools")) continue;
            tests.add(DynamicTest.dynamicTest(r.id(), () -> check(r)));
        }
        return tests.stream();
    }

    private static void check(RuleMeta r) throws Exception {
        Path drl = RuleCases.RULES.resolve(r.family()).resolve(r.id() + ".drl");
        String text = Files.readString(drl, StandardCharsets.UTF_8);
        assertFalse(FUNCTION.matcher(text).find(), drl + " defines a DRL function: put the wording into ID.yaml messages:");
        assertFalse(PLAIN_REPORT.matcher(text).find(), drl + " reports with sink.report(\"ID\", ...): use sink.at(...).report(key)");
        assertFalse(r.messages().isEmpty(), r.id() + ".yaml has messages:");
        Matcher at = AT.matcher(text);
        int reports = 0;
        Set<String> used = new TreeSet<>();
        while (at.find()) {
            reports++;
            Matcher end = REPORT.matcher(text);
            if (!end.find(at.end())) fail(drl + ": a sink.at( without .report(\"key\"); after it");
            String chain = text.substring(at.end(), end.end());
            assertFalse(AT.matcher(chain).find(), drl + ": a sink.at( without its .report(\"key\"); before the next one");
            Set<String> args = new LinkedHashSet<>();
            Matcher a = ARG.matcher(chain);
            while (a.find()) args.add(a.group(1));
            // sink.about($f, ...): the templates read those facts' properties by name
            if (at.group(1) != null) {
                for (String v : at.group(1).split(",")) args.addAll(properties(text, at.start(), v.strip(), drl));
            }
            List<String> keys = new ArrayList<>(List.of(end.group(1)));
            Matcher rel = RELATED.matcher(chain);
            while (rel.find()) keys.add(rel.group(1));
            Matcher fix = FIX.matcher(chain);
            while (fix.find()) keys.add(fix.group(1));
            for (String key : keys) {
                String template = r.messages().get(key);
                assertTrue(template != null, drl + " reports message '" + key + "', which " + r.id() + ".yaml messages: lacks");
                used.add(key);
                Set<String> missing = new TreeSet<>(Messages.arguments(template));
                missing.removeAll(args);
                assertTrue(missing.isEmpty(), drl + ": message '" + key + "' uses " + missing + ", which the report at "
                        + line(text, at.start()) + " does not give (.arg(\"name\", value))");
            }
        }
        assertTrue(reports > 0, drl + " reports through sink.at(...)");
        // a message no report names is a part that others include ({@name}) or a leftover
        Set<String> unused = new TreeSet<>(r.messages().keySet());
        unused.removeAll(used);
        unused.remove(dev.gpulint.plan.LayoutFixes.TITLE);      // the title of the plan's layout fix, which app.Checks adds
        String yaml = Files.readString(RuleCases.RULES.resolve(r.family()).resolve(r.id() + ".yaml"), StandardCharsets.UTF_8);
        for (String k : unused) assertTrue(yaml.contains("{@" + k + "}"), r.id() + ".yaml message '" + k + "' is used nowhere");
    }

    /**
     * The properties (as DRL names them) of the fact bound to {@code var} in the rule of {@code drl} that uses it: the last
     * binding before the report at {@code at} (two rules of a file may bind the same name to other facts, MEM002).
     */
    private static Set<String> properties(String drl, int at, String var, Path file) throws ClassNotFoundException {
        Matcher b = BINDING.matcher(drl.substring(0, at));
        String type = null;
        while (b.find()) if (b.group(1).equals(var)) type = b.group(2);
        assertTrue(type != null, file + ": sink.about(" + var + ") names no fact bound in a condition (" + var + " : Type(...))");
        Matcher i = IMPORT.matcher(drl);
        while (i.find()) {
            if (i.group(1).endsWith("." + type)) return dev.gpulint.engine.FactProperties.names(Class.forName(i.group(1)));
        }
        return dev.gpulint.engine.FactProperties.names(Class.forName("dev.gpulint.facts." + type));
    }

    /**
     * Rules whose consequences still copy a getter into a template argument of the same name
     * ({@code .arg("tp", $p.getTp())}) instead of reporting their fact ({@code sink.about($p)}): none since issue 38's
     * last conversion (MEM001-003, NET003, NET004, PAR006, UNIT001, UNIT002, EVID006, EVID007, EVID010, NCCL007). A rule
     * may be put here only while another change rewrites it; the list only shrinks.
     */
    static final Set<String> COPYING = Set.of();

    @TestFactory
    Stream<DynamicTest> aRuleReportsItsFactInsteadOfCopyingItsGetters() {
        List<DynamicTest> tests = new ArrayList<>();
        for (RuleMeta r : RuleCatalog.builtIn().all()) {
            if (!r.engine().equals("drools")) continue;
            tests.add(DynamicTest.dynamicTest(r.id(), () -> {
                String text = Files.readString(RuleCases.RULES.resolve(r.family()).resolve(r.id() + ".drl"), StandardCharsets.UTF_8);
                List<String> copies = new ArrayList<>();
                Matcher m = COPY.matcher(text);
                while (m.find()) {
                    String g = m.group(2);
                    String name = g.length() > 1 && Character.isUpperCase(g.charAt(1)) ? g : Character.toLowerCase(g.charAt(0)) + g.substring(1);
                    if (name.equals(m.group(1))) copies.add(m.group());
                }
                if (COPYING.contains(r.id())) {
                    assertFalse(copies.isEmpty(), r.id() + " copies no getter any more: take it off RuleMessagesTest.COPYING");
                } else {
                    assertTrue(copies.isEmpty(), r.id() + ".drl copies getters under their own names " + copies
                            + ": report the fact with sink.about($fact) and let the template read its properties");
                }
            }));
        }
        return tests.stream();
    }

    /**
     * A help page's failing example quotes the message on a line of its own, in backticks: it must be a text
     * one of the rule's templates renders (the sentence's closing period aside), not a hand-made copy.
     */
    @TestFactory
    Stream<DynamicTest> helpPagesQuoteMessagesTheirTemplatesRender() {
        List<DynamicTest> tests = new ArrayList<>();
        for (RuleMeta r : RuleCatalog.builtIn().all()) {
            if (!r.engine().equals("drools") || r.helpMarkdown() == null) continue;
            for (String quoted : failingExampleMessages(r.helpMarkdown())) {
                tests.add(DynamicTest.dynamicTest(r.id(), () -> assertTrue(r.messages().values().stream()
                        .anyMatch(t -> Pattern.compile(Messages.pattern(t), Pattern.DOTALL).matcher(quoted.replaceFirst("\\.$", "")).matches()),
                        r.id() + " help page quotes a message none of its templates renders: " + quoted)));
            }
        }
        return tests.stream();
    }

    /** The lines of the "## Failing example" section, outside code blocks, that are one backticked text. */
    static List<String> failingExampleMessages(String markdown) {
        List<String> out = new ArrayList<>();
        boolean in = false, code = false;
        for (String l : markdown.split("\n")) {
            if (l.startsWith("## ")) in = l.equals("## Failing example");
            else if (in && l.startsWith("```")) code = !code;
            else if (in && !code && l.length() > 2 && l.startsWith("`") && l.endsWith("`") && l.indexOf('`', 1) == l.length() - 1) {
                out.add(l.substring(1, l.length() - 1));
            }
        }
        return out;
    }

    /**
     * Rules whose conditions still compare a string literal (a vocabulary not yet typed). None is left: the list
     * may only shrink, and stays empty. A rule not on it that compares a literal fails, and so does a rule on it
     * that no longer does. RuleParam's {@code rule == "ID", name == "param"} is not a vocabulary of facts but the
     * ID.yaml params: keys.
     */
    static final Set<String> UNTYPED = Set.of();

    private static final Pattern CONDITIONS = Pattern.compile("\\nwhen\\s*\\n(.*?)\\nthen\\s*\\n", Pattern.DOTALL);

    /** Whether a condition of the DRL text compares a string literal (comments and RuleParam patterns aside). */
    static boolean comparesStringLiteral(String drl) {
        Matcher m = CONDITIONS.matcher(drl);
        while (m.find()) {
            String when = m.group(1).replaceAll("//[^\\n]*", "").replaceAll("RuleParam\\([^)]*\\)", "");
            if (when.contains("\"")) return true;
        }
        return false;
    }

    @TestFactory
    Stream<DynamicTest> conditionsCompareTypedValuesNotStrings() {
        List<DynamicTest> tests = new ArrayList<>();
        for (RuleMeta r : RuleCatalog.builtIn().all()) {
            if (!r.engine().equals("drools")) continue;
            tests.add(DynamicTest.dynamicTest(r.id(), () -> {
                String text = Files.readString(RuleCases.RULES.resolve(r.family()).resolve(r.id() + ".drl"), StandardCharsets.UTF_8);
                boolean literal = comparesStringLiteral(text);
                if (UNTYPED.contains(r.id())) {
                    assertTrue(literal, r.id() + " no longer compares a string literal: take it off RuleMessagesTest.UNTYPED");
                } else {
                    assertFalse(literal, r.id() + " compares a string literal in a condition: compare an enum, as DomainKind");
                }
            }));
        }
        return tests.stream();
    }

    private static int line(String text, int offset) {
        return (int) text.substring(0, offset).chars().filter(c -> c == '\n').count() + 1;
    }

    @TestFactory
    Stream<DynamicTest> theCheckFindsWhatItLooksFor() {
        // the patterns above against a rule written the old way and one with a missing argument
        return Stream.of(
                DynamicTest.dynamicTest("old report", () -> assertTrue(PLAIN_REPORT.matcher("    sink.report(\"PAR002\", $p.getSpan(), ").find())),
                DynamicTest.dynamicTest("function", () -> assertTrue(FUNCTION.matcher("x\nfunction String f(int a) {\n").find())),
                DynamicTest.dynamicTest("string literal in a condition", () -> {
                    assertTrue(comparesStringLiteral("rule \"A\"\nwhen\n    $b : BandwidthFact( kind == \"nvlink\" )\nthen\n    x();\nend"));
                    assertFalse(comparesStringLiteral("rule \"A\"\nwhen\n    // \"quoted\"\n    $b : BandwidthFact( kind == BandwidthKind.NVLINK )\n"
                            + "    RuleParam( rule == \"A\", name == \"x\", $x : value )\nthen\n    sink.at(s, i).arg(\"k\", 1).report(\"m\");\nend"));
                }),
                DynamicTest.dynamicTest("help page message", () -> {
                    String page = "# X\n## Failing example\n```yaml\n`not this`\n```\n`tp=16 spans 2 nodes`\n## Fixed\n`nor this`\n";
                    assertEquals(List.of("tp=16 spans 2 nodes"), failingExampleMessages(page));
                    String t = "tp={tp} spans {n|# node|# nodes}{why?: {why}}";
                    assertTrue(Pattern.compile(Messages.pattern(t)).matcher("tp=16 spans 2 nodes").matches());
                    assertFalse(Pattern.compile(Messages.pattern(t)).matcher("tp=16 spans two nodes").matches());
                }),
                DynamicTest.dynamicTest("chain", () -> {
                    String chain = "sink.at($p.getSpan(), $p.identity())\n .arg(\"tp\", 1).related($p.getOther(), \"domain\")\n .report(\"crosses\");";
                    Matcher a = ARG.matcher(chain);
                    assertTrue(a.find());
                    assertEquals("tp", a.group(1));
                    Matcher rel = RELATED.matcher(chain);
                    assertTrue(rel.find());
                    assertEquals("domain", rel.group(1));
                    Matcher end = REPORT.matcher(chain);
                    assertTrue(end.find());
                    assertEquals("crosses", end.group(1));
                }));
    }
}
